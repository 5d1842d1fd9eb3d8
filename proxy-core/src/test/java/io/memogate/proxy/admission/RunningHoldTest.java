package io.memogate.proxy.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.broker.gateway.GatewayListener;
import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.broker.gateway.GatewayTimer;
import io.memogate.broker.gateway.Gateways;
import io.memogate.broker.gateway.LocalGateways;
import io.memogate.broker.gateway.Tier;
import io.memogate.broker.gateway.TierSettings;
import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.postgres.PlannerSettings;
import io.memogate.proxy.postgres.catalog.IndexCatalogs;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * admission.holdWhileRunning: a statement planned while it runs keeps its permits past its first answers,
 * until it ends or the hold since the server started on it (RUNNING) has passed, whichever comes first; a
 * hold of zero releases it like any other statement. The hold's timer is run by hand here.
 */
class RunningHoldTest {

    /** The hold releases the test schedules, with their delays, and whether they were cancelled. */
    private static final class HoldsByHand implements GatewayTimer {
        final List<Scheduled> scheduled = new ArrayList<>();

        @Override
        public Cancellable schedule(Runnable task, long delayNanos) {
            Scheduled hold = new Scheduled(task, delayNanos, new AtomicBoolean());
            scheduled.add(hold);
            return hold;
        }
    }

    private record Scheduled(Runnable task, long delayNanos, AtomicBoolean cancelled)
            implements GatewayTimer.Cancellable {
        @Override
        public void cancel() {
            cancelled.set(true);
        }
    }

    private static final GatewayTimer NO_QUEUE_TIMEOUTS = (task, delayNanos) -> () -> { };

    private final HoldsByHand holds = new HoldsByHand();
    private final AtomicReference<Duration> holdWhileRunning = new AtomicReference<>(Duration.ofSeconds(10));
    private final SessionInfo session = new SessionInfo("etl", "warehouse", "loader",
            new InetSocketAddress("10.1.2.3", 50000));
    /** SMALL admits one statement at a time: an 8-table star (about 1.6 MB) takes it, and nothing more. */
    private final Gateways gateways = new LocalGateways(GatewaySettings.defaults(1).with(Tier.SMALL,
            new TierSettings(1, 0.25, 10, Duration.ofSeconds(30))), 1L << 30, System::nanoTime, NO_QUEUE_TIMEOUTS,
            GatewayListener.NONE);
    private final CompileEstimator estimator = new CompileEstimator();
    private final GatedAdmission admission = new GatedAdmission(() -> estimator, IndexCatalogs.NONE, gateways,
            estimate -> { }, closed -> { }, new RunningHold(holdWhileRunning::get, holds));

    private static String star(int tables) {
        StringBuilder sql = new StringBuilder("select count(*) from t0");
        for (int i = 1; i < tables; i++) {
            sql.append(" join t").append(i).append(" on t0.k").append(i).append(" = t").append(i).append(".a");
        }
        return sql.toString();
    }

    private static final String DO_BLOCK = "do $$ begin perform (" + star(8) + "); perform pg_sleep(7200); end $$";

    private Admission admit(String sql, AdmissionPoint point) {
        return admission.admit(new StatementRequest(sql, point, session, 7, PlannerSettings.DEFAULTS));
    }

    private static AdmittedStatement admitted(Admission admission) {
        return admission.decision().toCompletableFuture().join();
    }

    private int smallActive() {
        return gateways.state(Tier.SMALL).active();
    }

    @Test
    void aBlockStillRunningWhenItsHoldHasPassedGivesItsPermitsBack() {
        AdmittedStatement block = admitted(admit(DO_BLOCK, AdmissionPoint.STATEMENT_TEXT));

        assertThat(block.plannedWhileRunning()).isTrue();
        block.signal(ReleaseSignal.RUNNING);
        block.signal(ReleaseSignal.FIRST_RESPONSE);
        assertThat(smallActive()).as("kept past its first answer: its queries are planned after it").isEqualTo(1);
        assertThat(holds.scheduled).singleElement()
                .satisfies(hold -> assertThat(hold.delayNanos()).isEqualTo(Duration.ofSeconds(10).toNanos()));

        holds.scheduled.getFirst().task().run();
        assertThat(smallActive()).as("released once the hold has passed, the block still running").isZero();
        assertThat(gateways.ledger().inFlightBytes()).isZero();

        block.signal(ReleaseSignal.REQUEST_DONE); // its end, hours later, finds nothing left to give back
        assertThat(smallActive()).isZero();
    }

    @Test
    void aBlockThatEndsWithinItsHoldIsReleasedAtItsEndAndCancelsTheTimer() {
        AdmittedStatement block = admitted(admit(DO_BLOCK, AdmissionPoint.PREPARED_EXECUTION));

        block.signal(ReleaseSignal.RUNNING);
        block.signal(ReleaseSignal.REQUEST_DONE);

        assertThat(smallActive()).isZero();
        assertThat(holds.scheduled).singleElement().satisfies(hold -> assertThat(hold.cancelled()).isTrue());
    }

    @Test
    void theHoldStartsWhenTheServerStartsOnTheStatementNotWhenItIsAdmitted() {
        AdmittedStatement first = admitted(admit(star(8), AdmissionPoint.STATEMENT_TEXT));
        Admission queued = admit(DO_BLOCK, AdmissionPoint.PREPARED_EXECUTION);
        assertThat(queued.decision().toCompletableFuture()).isNotDone();

        first.signal(ReleaseSignal.FIRST_RESPONSE);
        AdmittedStatement block = admitted(queued);
        assertThat(block.plannedWhileRunning()).isTrue();
        assertThat(holds.scheduled).as("admitted, but behind earlier statements of its batch").isEmpty();

        block.signal(ReleaseSignal.RUNNING); // its BindComplete
        assertThat(holds.scheduled).hasSize(1);
    }

    @Test
    void aHoldOfZeroReleasesTheBlockAtItsFirstAnswerLikeAnyOtherStatement() {
        holdWhileRunning.set(Duration.ZERO);

        AdmittedStatement block = admitted(admit(DO_BLOCK, AdmissionPoint.STATEMENT_TEXT));
        block.signal(ReleaseSignal.FIRST_RESPONSE);
        assertThat(smallActive()).isZero();

        AdmittedStatement bound = admitted(admit(DO_BLOCK, AdmissionPoint.PREPARED_EXECUTION));
        assertThat(bound.plannedWhileRunning()).as("so the session releases the Bind at BindComplete").isFalse();
        bound.signal(ReleaseSignal.PLANNED);
        assertThat(smallActive()).isZero();
        assertThat(holds.scheduled).isEmpty();
    }

    @Test
    void aReloadChangesTheHoldForStatementsAdmittedFromThenOn() {
        AdmittedStatement before = admitted(admit(DO_BLOCK, AdmissionPoint.PREPARED_EXECUTION));
        before.signal(ReleaseSignal.RUNNING);
        holdWhileRunning.set(Duration.ofSeconds(2));
        before.signal(ReleaseSignal.REQUEST_DONE);
        admitted(admit(DO_BLOCK, AdmissionPoint.PREPARED_EXECUTION)).signal(ReleaseSignal.RUNNING);

        assertThat(holds.scheduled).extracting(Scheduled::delayNanos)
                .containsExactly(Duration.ofSeconds(10).toNanos(), Duration.ofSeconds(2).toNanos());
    }

    @Test
    void aQueryStringOfSeveralStatementsKeepsItsPermitsUntilReadyForQueryWithoutATimer() {
        String sql = DO_BLOCK + "; select 1";
        assertThat(estimator.estimate(sql, PlannerSettings.DEFAULTS).plannedWhileRunning()).isTrue();
        AdmittedStatement batch = admitted(admit(sql, AdmissionPoint.STATEMENT_TEXT));

        batch.signal(ReleaseSignal.RUNNING);
        batch.signal(ReleaseSignal.FIRST_RESPONSE);

        assertThat(smallActive()).isEqualTo(1);
        assertThat(holds.scheduled).isEmpty();
        batch.signal(ReleaseSignal.REQUEST_DONE);
        assertThat(smallActive()).isZero();
    }
}

package io.memogate.proxy.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.memogate.broker.gateway.GatewayListener;
import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.broker.gateway.GatewayTimer;
import io.memogate.broker.gateway.Gateways;
import io.memogate.broker.gateway.LocalGateways;
import io.memogate.broker.gateway.Tier;
import io.memogate.broker.gateway.TierSettings;
import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.postgres.PlannerSettings;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/**
 * What a client whose statement waits, or is refused, reads in the hint: while the console's PAUSE holds
 * the gateways, that the pause holds it and RESUME ends it, not that the server is busy; otherwise the
 * server's load and the setting to raise.
 */
class PausedAdmissionHintsTest {

    /** Runs the gateways' queue timeouts when the test says so. */
    private static final class TimeoutsByHand implements GatewayTimer {
        final List<Runnable> scheduled = new ArrayList<>();

        @Override
        public Cancellable schedule(Runnable task, long delayNanos) {
            scheduled.add(task);
            return () -> scheduled.remove(task);
        }

        void expireAll() {
            List.copyOf(scheduled).forEach(Runnable::run);
        }
    }

    private final TimeoutsByHand timeouts = new TimeoutsByHand();
    private final SessionInfo session = new SessionInfo("analyst", "warehouse", "report-tool",
            new InetSocketAddress("10.1.2.3", 50000));

    /** SMALL admits one and queues one; a third is refused at once. */
    private final Gateways gateways = new LocalGateways(GatewaySettings.defaults(1).with(Tier.SMALL,
            new TierSettings(1, 0.25, 1, Duration.ofSeconds(30))), 1L << 30, System::nanoTime, timeouts, GatewayListener.NONE);
    private final GatedAdmission admission = new GatedAdmission(new CompileEstimator(), gateways, estimate -> { },
            closed -> { });

    private Admission admit() {
        StringBuilder sql = new StringBuilder("select count(*) from t0");
        for (int i = 1; i < 8; i++) {
            sql.append(" join t").append(i).append(" on t0.k").append(i).append(" = t").append(i).append(".a");
        }
        return admission.admit(new StatementRequest(sql.toString(), AdmissionPoint.STATEMENT_TEXT, session, 7,
                PlannerSettings.DEFAULTS));
    }

    private static AdmissionRejectedException refusal(Admission admission) {
        Throwable failure = catchThrowable(() -> admission.decision().toCompletableFuture().join());
        assertThat(failure).isInstanceOf(CompletionException.class);
        return (AdmissionRejectedException) failure.getCause();
    }

    @Test
    void aStatementHeldByPauseIsToldSoNotThatTheServerIsBusy() {
        gateways.pause();

        Admission queued = admit();
        Admission refusedAtOnce = admit();

        assertThat(queued.waiting()).hasValueSatisfying(notice -> {
            assertThat(notice.where()).startsWith("statement queued for the SMALL gateway: position 1");
            assertThat(notice.hint()).isEqualTo("Admission is paused (PAUSE on the admin console); RESUME ends it.");
        });
        assertThat(refusal(refusedAtOnce).hint()).startsWith("Admission is paused (PAUSE on the admin console)")
                .contains("tiers.small.maxQueue").doesNotContain("busy");

        timeouts.expireAll();

        assertThat(refusal(queued).hint()).isEqualTo("Admission is paused (PAUSE on the admin console); RESUME ends "
                + "it. This statement waited tiers.small.timeout; retry after RESUME.");
    }

    @Test
    void aStatementWaitingForARunningOneIsToldTheServerIsBusy() {
        Admission running = admit();
        Admission queued = admit();
        Admission refusedAtOnce = admit();

        assertThat(running.decision().toCompletableFuture()).isCompleted();
        assertThat(queued.waiting()).hasValueSatisfying(notice -> assertThat(notice.hint())
                .isEqualTo("The server is busy compiling large statements; this one runs when its turn comes."));
        assertThat(refusal(refusedAtOnce).hint())
                .isEqualTo("Too many large statements are waiting; retry later, or raise tiers.small.maxQueue.");

        timeouts.expireAll();

        assertThat(refusal(queued).hint()).isEqualTo("The server was busy compiling other large statements; retry "
                + "later, or raise tiers.small.timeout.");
    }
}

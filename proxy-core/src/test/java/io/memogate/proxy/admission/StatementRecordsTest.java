package io.memogate.proxy.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.broker.gateway.GatewayListener;
import io.memogate.broker.gateway.GatewayRejectedException;
import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.broker.gateway.GatewayTimer;
import io.memogate.broker.gateway.Gateways;
import io.memogate.broker.gateway.LocalGateways;
import io.memogate.broker.gateway.Tier;
import io.memogate.broker.gateway.TierSettings;
import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.postgres.PlannerSettings;
import io.memogate.proxy.admission.StatementRecord.Outcome;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * What a test of an application reads from the proxy's statement records: each statement's outcome, tier,
 * wait and refusal, with its estimate and fingerprint, the last few only, and nothing while they are off.
 */
class StatementRecordsTest {

    private static final GatewayTimer NO_TIMEOUTS = (task, delayNanos) -> () -> { };

    private final AtomicLong now = new AtomicLong();
    private final SessionInfo session = new SessionInfo("app", "shop", "orders-service",
            new InetSocketAddress("10.1.2.3", 50000));
    /** SMALL admits one and queues one; a third is refused at once. */
    private final Gateways gateways = new LocalGateways(GatewaySettings.defaults(1).with(Tier.SMALL,
            new TierSettings(1, 0.25, 1, Duration.ofSeconds(30))), 1L << 30, now::get, NO_TIMEOUTS,
            GatewayListener.NONE);

    private GatedAdmission admission(StatementRecords records) {
        return new GatedAdmission(CompileEstimator::new, ServerCatalogs.NONE, gateways, estimate -> { },
                closed -> { }, RunningHold.UNTIL_END, records);
    }

    private Admission admit(GatedAdmission admission, String sql) {
        return admission.admit(new StatementRequest(sql, AdmissionPoint.STATEMENT_TEXT, session, 7,
                PlannerSettings.DEFAULTS));
    }

    private static String star(int tables) {
        StringBuilder sql = new StringBuilder("select count(*) from t0");
        for (int i = 1; i < tables; i++) {
            sql.append(" join t").append(i).append(" on t0.k").append(i).append(" = t").append(i).append(".a");
        }
        return sql.toString();
    }

    @Test
    void eachStatementIsRecordedWithItsOutcomeTierWaitAndEstimate() {
        StatementRecords records = new StatementRecords("main", 10, now::get);
        GatedAdmission admission = admission(records);

        admit(admission, "select * from orders where id = 42");
        admit(admission, "select * from orders o join customers c on o.customer = c.id where o.id = 1");
        Admission running = admit(admission, star(8));
        Admission queued = admit(admission, star(8));
        admit(admission, star(8));
        now.addAndGet(Duration.ofSeconds(2).toNanos());
        running.decision().toCompletableFuture().join().signal(ReleaseSignal.FIRST_RESPONSE);
        queued.decision().toCompletableFuture().join();

        List<StatementRecord> seen = records.snapshot();
        assertThat(seen).extracting(StatementRecord::outcome).containsExactly(Outcome.BYPASSED,
                Outcome.BELOW_THRESHOLD, Outcome.ADMITTED, Outcome.REFUSED, Outcome.ADMITTED);
        assertThat(seen.getFirst().fingerprint()).isEqualTo("select * from orders where id = ?");
        assertThat(seen.get(2)).satisfies(admitted -> {
            assertThat(admitted.highestTier()).contains(Tier.SMALL);
            assertThat(admitted.waited()).isFalse();
            assertThat(admitted.estimate().relations()).isEqualTo(8);
            assertThat(admitted.estimatedBytes()).isGreaterThan(GatewaySettings.DEFAULT_STATIC_THRESHOLD_BYTES);
            assertThat(admitted.server()).isEqualTo("main");
            assertThat(admitted.database()).isEqualTo("shop");
            assertThat(admitted.user()).isEqualTo("app");
        });
        assertThat(seen.get(3)).satisfies(refused -> {
            assertThat(refused.highestTier()).contains(Tier.SMALL);
            assertThat(refused.refusal()).map(StatementRecord.Refusal::reason)
                    .contains(GatewayRejectedException.Reason.QUEUE_FULL);
            assertThat(refused.describe()).startsWith("REFUSED SMALL, ").contains("8 relations")
                    .contains("refused: SMALL gateway: queue full").endsWith(": " + seen.get(3).fingerprint());
        });
        assertThat(seen.get(4).queuedFor()).contains(Duration.ofSeconds(2));
    }

    @Test
    void aStatementIsRecordedBeforeItsClientIsAnswered() {
        StatementRecords records = new StatementRecords("main", 10, now::get);
        GatedAdmission admission = admission(records);
        Admission running = admit(admission, star(8));
        Admission queued = admit(admission, star(8));

        CompletableFuture<Integer> seenWhenDecided = queued.decision().toCompletableFuture()
                .thenApply(statement -> records.snapshot().size());
        running.decision().toCompletableFuture().join().signal(ReleaseSignal.FIRST_RESPONSE);

        assertThat(seenWhenDecided.join()).isEqualTo(2);
    }

    @Test
    void aStatementTheClientCancelledWhileItWaitedIsRecordedAsWithdrawn() {
        StatementRecords records = new StatementRecords("main", 10, now::get);
        GatedAdmission admission = admission(records);
        admit(admission, star(8));
        Admission queued = admit(admission, star(8));
        now.addAndGet(Duration.ofMillis(500).toNanos());

        assertThat(queued.withdraw()).isTrue();

        assertThat(records.snapshot()).last().satisfies(withdrawn -> {
            assertThat(withdrawn.outcome()).isEqualTo(Outcome.WITHDRAWN);
            assertThat(withdrawn.queuedFor()).contains(Duration.ofMillis(500));
        });
    }

    @Test
    void onlyTheLastStatementsAreKept() {
        StatementRecords records = new StatementRecords("main", 2, now::get);
        GatedAdmission admission = admission(records);

        for (int id = 1; id <= 3; id++) {
            admit(admission, "select * from orders_" + id + " where id = 1");
        }

        assertThat(records.snapshot()).extracting(StatementRecord::fingerprint)
                .containsExactly("select * from orders_2 where id = ?", "select * from orders_3 where id = ?");
        assertThat(records.dropped()).isEqualTo(1);
        records.clear();
        assertThat(records.snapshot()).isEmpty();
        assertThat(records.dropped()).isZero();
    }

    @Test
    void aLowerCapacityForgetsTheOldestAtOnceAndZeroStopsRecording() {
        AtomicInteger capacity = new AtomicInteger(3);
        StatementRecords records = new StatementRecords("main", capacity::get, now::get);
        GatedAdmission admission = admission(records);
        for (int id = 1; id <= 3; id++) {
            admit(admission, "select * from orders_" + id + " where id = 1");
        }

        capacity.set(1);
        StatementRecords.Window window = records.window();
        assertThat(window.records()).extracting(StatementRecord::fingerprint)
                .containsExactly("select * from orders_3 where id = ?");
        assertThat(window.firstNumber()).isEqualTo(3);
        assertThat(window.dropped()).isEqualTo(2);

        capacity.set(0);
        admit(admission, "select * from orders_4 where id = 1");
        assertThat(records.enabled()).isFalse();
        assertThat(records.snapshot()).isEmpty();
        assertThat(records.dropped()).isEqualTo(3);
    }

    @Test
    void numbersGoOnAfterAClearSoThatAReaderCanTellNewRecordsFromOld() {
        StatementRecords records = new StatementRecords("main", 10, now::get);
        GatedAdmission admission = admission(records);
        assertThat(records.window().firstNumber()).as("the number the first record will get").isEqualTo(1);
        admit(admission, "select 1");
        admit(admission, "select 2");

        records.clear();
        admit(admission, "select 3");

        StatementRecords.Window window = records.window();
        assertThat(window.records()).extracting(StatementRecord::fingerprint).containsExactly("select ?");
        assertThat(window.firstNumber()).isEqualTo(3);
        assertThat(window.dropped()).isZero();
    }

    @Test
    void recordsThatAreOffKeepNothingAndLeaveTheAdmissionAsItIs() {
        StatementRecords records = StatementRecords.off("main");
        GatedAdmission admission = admission(records);

        admit(admission, "select 1");
        Admission gated = admit(admission, star(8));

        assertThat(records.snapshot()).isEmpty();
        assertThat(gated).isInstanceOf(GatewayAdmission.class);
        assertThat(gated.decision().toCompletableFuture()).isCompleted();
    }
}

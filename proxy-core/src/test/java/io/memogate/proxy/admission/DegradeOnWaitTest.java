package io.memogate.proxy.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.broker.gateway.GatewayListener;
import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.broker.gateway.GatewayTimer;
import io.memogate.broker.gateway.Gateways;
import io.memogate.broker.gateway.LocalGateways;
import io.memogate.broker.gateway.Ticket;
import io.memogate.broker.gateway.Tier;
import io.memogate.estimator.Catalog;
import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.PreparedStatementTexts;
import io.memogate.estimator.postgres.PlannerSettings;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * admission.degrade.after: a statement that fits the target but waits for LARGE leaves its queue once it has
 * waited that long, for tighter settings admitted at once; one decided before, or withdrawn, is left alone; with
 * no room anywhere it keeps its place. The gateways' timer is run by hand.
 */
class DegradeOnWaitTest {

    /** Tasks scheduled on the gateways' timer, run when the test says. */
    private static final class TimerByHand implements GatewayTimer {
        final List<Runnable> tasks = new ArrayList<>();

        @Override
        public Cancellable schedule(Runnable task, long delayNanos) {
            Runnable[] slot = {task};
            tasks.add(() -> {
                if (slot[0] != null) {
                    slot[0].run();
                }
            });
            return () -> slot[0] = null;
        }

        void runAll() {
            List<Runnable> now = new ArrayList<>(tasks);
            tasks.clear();
            now.forEach(Runnable::run);
        }
    }

    static final PlannerSettings WIDE = PlannerSettings.DEFAULTS.with("join_collapse_limit", "20")
            .with("from_collapse_limit", "20").with("geqo_threshold", "20");
    static final String STAR = "select count(*) from t0" + IntStream.range(1, 12)
            .mapToObj(i -> " join t" + i + " on t0.k" + i + " = t" + i + ".a").collect(Collectors.joining());
    static final List<Degradation> LADDER = List.of(
            new Degradation(Map.of("join_collapse_limit", "4", "from_collapse_limit", "4")));

    private final CompileEstimator estimator = new CompileEstimator();
    private final long starBytes = estimator.estimate(STAR, WIDE, PreparedStatementTexts.NONE, Catalog.NONE)
            .estimatedBytes();
    private final TimerByHand timer = new TimerByHand();
    /** The star fits the target but needs LARGE (over t2 = half the target with MEDIUM empty). */
    private final Gateways gateways = new LocalGateways(GatewaySettings.defaults(2), starBytes * 6 / 5,
            System::nanoTime, (task, delayNanos) -> () -> { }, GatewayListener.NONE);
    private final DegradeCounts counts = new DegradeCounts();
    private final StatementRecords records = new StatementRecords(AdmissionControl.ONLY_SERVER, 10, System::nanoTime);
    private final GatedAdmission admission = new GatedAdmission(() -> estimator, ServerCatalogs.NONE, gateways,
            estimate -> { }, closed -> { }, new RunningHold(() -> Duration.ZERO, timer),
            records, () -> SearchTiers.DEFAULTS,
            () -> new DegradePolicy(true, Set.of(), Set.of(), Optional.of(Duration.ofSeconds(1))), counts);
    private final SessionInfo session = new SessionInfo("reports", "warehouse", "bi",
            new InetSocketAddress("10.1.2.3", 50000));

    private Ticket holdLarge() {
        Ticket large = gateways.acquire(gateways.target() / 2 + 1, 1);
        assertThat(large.highestTier()).contains(Tier.LARGE);
        return large;
    }

    private Admission admitStar() {
        return admitStar(LADDER);
    }

    private Admission admitStar(List<Degradation> ladder) {
        Admission star = admission.admit(new StatementRequest(STAR, AdmissionPoint.STATEMENT_TEXT, session, 7, WIDE),
                ladder);
        assertThat(star.decision().toCompletableFuture()).as("queued behind LARGE").isNotDone();
        return star;
    }

    @Test
    void onceItHasWaitedItRunsDegradedInATierWithRoom() {
        holdLarge();
        Admission star = admitStar();
        timer.runAll();
        assertThat(star.decision().toCompletableFuture()).isCompleted();
        Degraded degraded = star.degraded().orElseThrow();
        assertThat(degraded.degradation()).isEqualTo(LADDER.getFirst());
        assertThat(degraded.degradedBytes()).isLessThan(starBytes);
        assertThat(degraded.message()).endsWith("waiting longer than admission.degrade.after for the LARGE gateway");
        assertThat(gateways.waiting()).as("it left the LARGE queue").isEmpty();
        assertThat(counts.count("large")).isZero();
        assertThat(counts.total()).isEqualTo(1);
        assertThat(records.snapshot()).as("one record, the degraded admission's").singleElement()
                .satisfies(r -> assertThat(r.estimate().estimatedBytes()).isEqualTo(degraded.degradedBytes()));
    }

    @Test
    void oneAdmittedBeforeRunsAsItIs() {
        Ticket large = holdLarge();
        Admission star = admitStar();
        large.release();
        assertThat(star.decision().toCompletableFuture()).isCompleted();
        timer.runAll();
        assertThat(star.degraded()).isEmpty();
        assertThat(gateways.state(Tier.LARGE).active()).as("the star holds LARGE").isEqualTo(1);
        assertThat(counts.total()).isZero();
        assertThat(records.snapshot()).singleElement().satisfies(r -> {
            assertThat(r.outcome()).isEqualTo(StatementRecord.Outcome.ADMITTED);
            assertThat(r.estimate().estimatedBytes()).isEqualTo(starBytes);
        });
    }

    @Test
    void oneWithdrawnWhileItWaitsIsCancelledAndNotDegradedAfter() {
        holdLarge();
        Admission star = admitStar();
        assertThat(star.withdraw()).isTrue();
        Throwable failure = star.decision().toCompletableFuture().handle((admitted, e) -> e).join();
        assertThat(failure instanceof CompletionException wrapped ? wrapped.getCause() : failure)
                .isInstanceOf(CancellationException.class);
        timer.runAll();
        assertThat(star.degraded()).isEmpty();
        assertThat(gateways.waiting()).isEmpty();
        assertThat(counts.total()).isZero();
    }

    @Test
    void withNoRoomItKeepsItsPlaceAndIsLookedAtAgain() {
        holdLarge();
        // Limits above the star's 12 tables change nothing: its estimate still needs LARGE, which has no room.
        Admission star = admitStar(List.of(new Degradation(Map.of("join_collapse_limit", "19",
                "from_collapse_limit", "19"))));
        timer.runAll();
        assertThat(star.decision().toCompletableFuture()).isNotDone();
        assertThat(star.degraded()).isEmpty();
        assertThat(gateways.waiting()).singleElement().extracting(w -> w.tier()).isEqualTo(Tier.LARGE);
        assertThat(timer.tasks).as("looked at again later").hasSize(1);
    }
}

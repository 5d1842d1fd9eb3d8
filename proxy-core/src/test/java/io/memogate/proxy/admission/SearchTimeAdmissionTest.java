package io.memogate.proxy.admission;

import static io.memogate.estimator.mysql.SyntheticJoins.clique;
import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.broker.gateway.GatewayListener;
import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.broker.gateway.Gateways;
import io.memogate.broker.gateway.LocalGateways;
import io.memogate.broker.gateway.Tier;
import io.memogate.broker.gateway.TierState;
import io.memogate.broker.gateway.WaitingStatement;
import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.mysql.MySqlDialect;
import io.memogate.estimator.mysql.OptimizerSettings;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * MySQL's join search with pruning off takes seconds in a few megabytes: a statement is weighed by its predicted
 * search time as well as its memory, climbing the tiers with the time ({@code admission.search}), so that the
 * tier limits bound the CPU-heavy compiles running at once; a point select still bypasses.
 */
class SearchTimeAdmissionTest {

    private static final OptimizerSettings NO_PRUNING =
            OptimizerSettings.MARIADB_DEFAULTS.with("optimizer_prune_level", "0");
    private final CompileEstimator estimator = new CompileEstimator(new MySqlDialect());
    private final Gateways gateways = new LocalGateways(GatewaySettings.defaults(2), 1L << 30, System::nanoTime,
            (task, delayNanos) -> () -> { }, GatewayListener.NONE);
    private final AtomicReference<SearchTiers> tiers = new AtomicReference<>(SearchTiers.DEFAULTS);
    private final GatedAdmission admission = new GatedAdmission(() -> estimator, ServerCatalogs.NONE, gateways,
            estimate -> { }, closed -> { }, RunningHold.UNTIL_END, StatementRecords.off("maria"), tiers::get);

    @Test
    void longerPredictedSearchesClimbHigherTiers() throws Exception {
        // predicted (and measured on MariaDB 10.11) about 0.2 s, 2 s, and minutes
        assertThat(tiersHeldBy(clique(9), NO_PRUNING)).containsExactly(1, 0, 0);
        assertThat(tiersHeldBy(clique(10), NO_PRUNING)).containsExactly(1, 1, 0);
        assertThat(tiersHeldBy(clique(12), NO_PRUNING)).containsExactly(1, 1, 1);
    }

    @Test
    void theSameJoinWithPruningAndAPointSelectTakeNoGateway() {
        assertThat(admit(clique(12), OptimizerSettings.MARIADB_DEFAULTS)).isSameAs(Admission.IMMEDIATE);
        assertThat(admit("SELECT c FROM sbtest1 WHERE id = 4711", NO_PRUNING).bypassed()).isTrue();
    }

    @Test
    void theSearchTimesAreReadAtEachStatement() throws Exception {
        tiers.set(new SearchTiers(Duration.ofSeconds(1), Duration.ofMinutes(1), Duration.ofHours(1)));
        assertThat(tiersHeldBy(clique(9), NO_PRUNING)).containsExactly(0, 0, 0);
        assertThat(tiersHeldBy(clique(12), NO_PRUNING)).containsExactly(1, 1, 0);
    }

    /** Only one LARGE permit: a second minutes-long search waits for the first, and SHOW QUEUE shows its time. */
    @Test
    void theLargeLimitBoundsTheLongestSearchesAtOnce() throws Exception {
        AdmittedStatement first = admit(clique(12), NO_PRUNING).decision().toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
        CompletableFuture<AdmittedStatement> second = admit(clique(12), NO_PRUNING).decision().toCompletableFuture();

        assertThat(second).isNotDone();
        WaitingStatement waiting = gateways.waiting().getFirst();
        assertThat(waiting.tier()).isEqualTo(Tier.LARGE);
        assertThat(((QueuedStatement) waiting.tag()).searchSeconds()).isGreaterThan(10);
        first.signal(ReleaseSignal.REQUEST_DONE);
        second.get(10, TimeUnit.SECONDS).signal(ReleaseSignal.REQUEST_DONE);
    }

    /** How many statements hold each tier while {@code sql} is admitted (0 each when it passed holding none). */
    private int[] tiersHeldBy(String sql, OptimizerSettings settings) throws Exception {
        AdmittedStatement admitted = admit(sql, settings).decision().toCompletableFuture().get(10, TimeUnit.SECONDS);
        int[] held = Arrays.stream(Tier.values()).map(gateways::state).mapToInt(TierState::active).toArray();
        admitted.signal(ReleaseSignal.REQUEST_DONE);
        assertThat(Arrays.stream(Tier.values()).map(gateways::state).mapToInt(TierState::active).sum()).isZero();
        return held;
    }

    private Admission admit(String sql, OptimizerSettings settings) {
        return admission.admit(new StatementRequest(sql, AdmissionPoint.STATEMENT_TEXT, new SessionInfo("analyst",
                "shop", "report-tool", new InetSocketAddress("10.1.2.3", 50000)), 7, settings));
    }
}

package io.memogate.proxy.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.Catalog;
import io.memogate.estimator.CompileEstimate;
import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.PreparedStatementTexts;
import io.memogate.estimator.planner.IndexedColumns;
import io.memogate.estimator.postgres.PlannerSettings;
import io.memogate.proxy.postgres.DegradeLadder;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Which tighter settings a statement that can never fit the target runs under: the least restrictive of the
 * ladder whose estimate fits, for the sessions the policy names, and none for a statement that fits or for a
 * query string of several statements.
 */
class DegraderTest {

    private static final PlannerSettings WIDE = PlannerSettings.DEFAULTS.with("join_collapse_limit", "20")
            .with("from_collapse_limit", "20").with("geqo_threshold", "20");
    private static final SessionInfo REPORTS = new SessionInfo("reporting", "demo", "metabase",
            new InetSocketAddress("127.0.0.1", 5000));
    private static final SessionInfo APP = new SessionInfo("app", "demo", "web", new InetSocketAddress("127.0.0.1", 5001));

    private final CompileEstimator estimator = new CompileEstimator();

    private static String star(int tables) {
        return "select count(*) from t0" + IntStream.range(1, tables)
                .mapToObj(i -> " join t" + i + " on t0.k" + i + " = t" + i + ".a").collect(Collectors.joining());
    }

    private Optional<Degrader.Choice> choose(String sql, SessionInfo who, DegradePolicy policy, long target) {
        Degrader degrader = new Degrader(() -> policy, () -> estimator, () -> target);
        StatementRequest request = new StatementRequest(sql, AdmissionPoint.STATEMENT_TEXT, who, 1, WIDE);
        CompileEstimate estimate = estimator.estimate(sql, WIDE);
        return degrader.choose(request, Catalog.NONE, estimate, DegradeLadder.of(WIDE));
    }

    @Test
    void theLeastRestrictiveSettingsThatFitAreChosen() {
        long target = 8L << 20;
        long full = estimator.estimate(star(12), WIDE).estimatedBytes();
        assertThat(full).as("the star under the session's settings").isGreaterThan(target);
        Degraded chosen = choose(star(12), REPORTS, new DegradePolicy(true, Set.of(), Set.of()), target)
                .orElseThrow().degraded();
        assertThat(chosen.degradedBytes()).isLessThanOrEqualTo(target);
        assertThat(chosen.sessionBytes()).isEqualTo(full);
        int limit = Integer.parseInt(chosen.degradation().settings().get("join_collapse_limit"));
        PlannerSettings oneHigher = WIDE.with("join_collapse_limit", String.valueOf(limit + 1))
                .with("from_collapse_limit", String.valueOf(limit + 1));
        assertThat(estimator.estimate(star(12), oneHigher).estimatedBytes())
                .as("the next limit up would not fit: %s was the least restrictive", chosen.degradation().describe())
                .isGreaterThan(target);
    }

    @Test
    void onlyTheRolesAndApplicationsNamedAreDegraded() {
        long target = 8L << 20;
        DegradePolicy reports = new DegradePolicy(true, Set.of("reporting"), Set.of());
        assertThat(choose(star(12), REPORTS, reports, target)).isPresent();
        assertThat(choose(star(12), APP, reports, target)).isEmpty();
        assertThat(choose(star(12), APP, new DegradePolicy(true, Set.of(), Set.of("web")), target)).isPresent();
        assertThat(choose(star(12), REPORTS, DegradePolicy.OFF, target)).isEmpty();
    }

    @Test
    void aStatementThatFitsOrSeveralInOneStringIsNotDegraded() {
        DegradePolicy everyone = new DegradePolicy(true, Set.of(), Set.of());
        assertThat(choose(star(12), REPORTS, everyone, 1L << 30)).as("fits the target").isEmpty();
        assertThat(choose(star(12) + "; " + star(12), REPORTS, everyone, 8L << 20)).as("two statements").isEmpty();
    }

    @Test
    void theLadderStartsWithPartitionwiseJoinsAndMemoizeOffAndEndsWithGeqo() {
        List<Degradation> ladder = DegradeLadder.of(WIDE.with("enable_partitionwise_join", "on"));
        assertThat(ladder.get(0).describe()).isEqualTo("enable_partitionwise_join = off");
        assertThat(ladder.get(1).describe()).isEqualTo("enable_partitionwise_join = off, enable_memoize = off");
        assertThat(ladder.get(2).describe())
                .as("Memoize stays on where lower limits are needed")
                .isEqualTo("enable_partitionwise_join = off, join_collapse_limit = 19, from_collapse_limit = 19");
        assertThat(ladder.get(ladder.size() - 1).describe())
                .isEqualTo("enable_partitionwise_join = off, geqo = on, geqo_threshold = 2");
        assertThat(DegradeLadder.of(PlannerSettings.DEFAULTS)).extracting(Degradation::describe)
                .startsWith("enable_memoize = off", "join_collapse_limit = 7, from_collapse_limit = 7");
        assertThat(DegradeLadder.of(PlannerSettings.DEFAULTS.with("enable_memoize", "off")).get(0).describe())
                .as("a session without Memoize").isEqualTo("join_collapse_limit = 7, from_collapse_limit = 7");
    }

    /**
     * A report over indexed tables planned for its first rows costs mostly Memoize paths: without them it fits,
     * and it keeps its whole join search. The same join planned for all its rows, where no catalog shows an index,
     * gains nothing from it and has its limits lowered instead.
     */
    @Test
    void aFirstRowsReportRunsWithoutMemoizeAndAJoinMemoizeDoesNotShrinkWithLowerLimits() {
        String report = star(12) + " limit 20";
        Catalog indexed = Catalog.of(IndexedColumns.of(IntStream.range(1, 12).boxed()
                .collect(Collectors.toMap(i -> "t" + i, i -> Set.of("a")))));
        long full = estimator.estimate(report, WIDE, PreparedStatementTexts.NONE, indexed).estimatedBytes();
        long withoutMemoize = estimator.estimate(report, WIDE.with("enable_memoize", "off"),
                PreparedStatementTexts.NONE, indexed).estimatedBytes();
        long target = withoutMemoize + (full - withoutMemoize) / 10;
        assertThat(full).isGreaterThan(target);
        Degrader degrader = new Degrader(() -> new DegradePolicy(true, Set.of(), Set.of()), () -> estimator,
                () -> target);
        StatementRequest request = new StatementRequest(report, AdmissionPoint.STATEMENT_TEXT, REPORTS, 1, WIDE);

        Degraded chosen = degrader.choose(request, indexed, estimator.estimate(report, WIDE, PreparedStatementTexts.NONE,
                indexed), DegradeLadder.of(WIDE)).orElseThrow().degraded();
        assertThat(chosen.degradation().describe()).isEqualTo("enable_memoize = off");
        assertThat(chosen.degradedBytes()).isEqualTo(withoutMemoize);

        String join = star(13);
        assertThat(estimator.estimate(join, WIDE).estimatedBytes()).isGreaterThan(target);
        StatementRequest joinRequest = new StatementRequest(join, AdmissionPoint.STATEMENT_TEXT, REPORTS, 1, WIDE);
        Degraded unindexed = degrader.choose(joinRequest, Catalog.NONE, estimator.estimate(join, WIDE),
                DegradeLadder.of(WIDE)).orElseThrow().degraded();
        assertThat(unindexed.degradation().settings()).containsKey("join_collapse_limit")
                .doesNotContainKey("enable_memoize");
    }
}

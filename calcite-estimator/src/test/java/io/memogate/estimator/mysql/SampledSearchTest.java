package io.memogate.estimator.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.Catalog;
import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.PreparedStatementTexts;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A search longer than the replay's budget: its count, the extensions replayed plus the subtrees not reached
 * sampled by random paths, against the exact count of a replay with a budget large enough to finish (seconds of
 * the estimator's time, which the proxy cannot spend on a statement). Over {@link CostBoundSearchTest}'s schema.
 */
class SampledSearchTest {

    /** Enough to replay every search below to its end. */
    private static final long EXACT_BUDGET = 40_000_000;
    private static final Catalog CATALOG = Catalog.of(CostBoundSearchTest.schema());

    static double priced(long budget, String sql, int prune, int depth) {
        CompileEstimator counting = new CompileEstimator(new MySqlDialect(new MySqlCoefficients(0, 0, 0, 1, 1, 1, 0, 0),
                OptimizerSettings.MARIADB_DEFAULTS, budget));
        OptimizerSettings settings = OptimizerSettings.MARIADB_DEFAULTS
                .with("optimizer_prune_level", Integer.toString(prune))
                .with("optimizer_search_depth", Integer.toString(depth));
        return counting.estimate(sql, settings, PreparedStatementTexts.NONE, CATALOG).searchSeconds();
    }

    /** The sampled count over the exact one, checking that the search is long and that the exact replay ended. */
    static double ratio(String sql, int prune, int depth) {
        double exact = priced(EXACT_BUDGET, sql, prune, depth);
        assertThat(exact).as("exact count").isBetween((double) MySqlPlannerModel.PRICED_BUDGET, (double) EXACT_BUDGET);
        return priced(MySqlPlannerModel.PRICED_BUDGET, sql, prune, depth) / exact;
    }

    @Test
    void cliquesPastTheBudgetAreCountedWithinTwiceTheExactCount() {
        // 0.74 to 7.1 million extensions searched to the end, 0.8 to 5.6 million five or seven tables deep
        assertThat(ratio(SyntheticJoins.clique(9), 0, 62)).isBetween(0.5, 2.0);
        assertThat(ratio(SyntheticJoins.clique(10), 0, 62)).isBetween(0.5, 2.0);
        assertThat(ratio(SyntheticJoins.clique(10), 0, 7)).isBetween(0.5, 2.0);
        assertThat(ratio(SyntheticJoins.clique(11), 0, 7)).isBetween(0.5, 2.0);
        assertThat(ratio(SyntheticJoins.clique(12), 0, 7)).isBetween(0.5, 2.0);
    }

    @Test
    void starsPastTheBudgetAreCountedWithinAQuarterOfTheExactCount() {
        // A path that meets a whole unique key it cannot improve on takes its siblings as large as it (they add a
        // row each at one price), and a plan as cheap as the bound counts as the one that set it: 0.80-1.00 here,
        // where random paths alone gave 0.27-3.5
        assertThat(ratio(CostBoundSearchTest.star(IntStream.range(4, 14).toArray()), 0, 62)).isBetween(0.75, 1.25);
        assertThat(ratio(CostBoundSearchTest.star(IntStream.range(4, 15).toArray()), 0, 62)).isBetween(0.75, 1.25);
        assertThat(ratio(CostBoundSearchTest.star(IntStream.range(10, 20).toArray()), 0, 62)).isBetween(0.75, 1.25);
        assertThat(ratio(CostBoundSearchTest.star(IntStream.range(7, 17).toArray()), 0, 62)).isBetween(0.75, 1.25);
        assertThat(ratio(CostBoundSearchTest.star(IntStream.range(10, 19).toArray()), 0, 62)).isBetween(0.75, 1.25);
    }

    @Test
    void otherStarsPastTheBudgetAreCountedWithinTwiceTheExactCount() {
        // s5..s15 0.50 (0.13 with random paths alone), s13..s22 1.49, s14..s23 1.52
        assertThat(ratio(CostBoundSearchTest.star(IntStream.range(5, 16).toArray()), 0, 62)).isBetween(0.45, 2.0);
        assertThat(ratio(CostBoundSearchTest.star(IntStream.range(13, 23).toArray()), 0, 62)).isBetween(0.45, 2.0);
        assertThat(ratio(CostBoundSearchTest.star(IntStream.range(14, 24).toArray()), 0, 62)).isBetween(0.45, 2.0);
    }

    @Test
    void theSameStatementIsCountedTheSameEveryTime() {
        String star = CostBoundSearchTest.star(IntStream.range(4, 15).toArray());
        assertThat(priced(MySqlPlannerModel.PRICED_BUDGET, star, 0, 62))
                .isEqualTo(priced(MySqlPlannerModel.PRICED_BUDGET, star, 0, 62));
    }
}

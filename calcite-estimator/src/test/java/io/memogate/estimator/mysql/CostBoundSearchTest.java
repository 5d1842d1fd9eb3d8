package io.memogate.estimator.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.Catalog;
import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.PreparedStatementTexts;
import io.memogate.estimator.planner.TableStatistics;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The replayed search against MariaDB 10.11's own count of the extensions it priced: the
 * {@code best_access_path} entries of its optimizer trace, for statements over bench/log/mysql-optimizer.md's
 * schema (a fact table of 200 rows with a key per dimension, dimension tables of 23 to 92 rows), with the
 * statistics the server reported for those tables.
 */
class CostBoundSearchTest {

    /** information_schema.STATISTICS' CARDINALITY of f.d1..d24 and of s1..s24's key a, as the server read them. */
    private static final long[] FACT_KEYS = {8, 10, 12, 2, 16, 18, 20, 22, 25, 28, 4, 33, 33, 40, 40, 40, 40, 6, 50,
            50, 50, 50, 66, 66};
    private static final long[] DIMENSION_A = {7, 8, 14, 16, 17, 19, 20, 22, 23, 25, 26, 28, 59, 62, 65, 68, 71, 74,
            77, 80, 83, 86, 89, 92};
    private static final Catalog CATALOG = Catalog.of(schema());
    /** Time in "seconds" is the count of priced extensions. */
    private static final CompileEstimator COUNTING = new CompileEstimator(new MySqlDialect(
            new MySqlCoefficients(0, 0, 0, 1, 1, 1, 0, 0), OptimizerSettings.MARIADB_DEFAULTS));

    static TableStatistics schema() {
        Map<String, TableStatistics.Table> tables = new HashMap<>();
        List<TableStatistics.Index> factIndexes = new java.util.ArrayList<>();
        factIndexes.add(new TableStatistics.Index(List.of("id"), true, List.of(200L)));
        for (int i = 1; i <= 24; i++) {
            factIndexes.add(new TableStatistics.Index(List.of("d" + i), false, List.of(FACT_KEYS[i - 1])));
        }
        tables.put("f", new TableStatistics.Table(200, 4, factIndexes));
        for (int i = 1; i <= 24; i++) {
            long rows = 20 + 3L * i;
            tables.put("s" + i, new TableStatistics.Table(rows, 1, List.of(
                    new TableStatistics.Index(List.of("id"), true, List.of(rows)),
                    new TableStatistics.Index(List.of("a"), false, List.of(DIMENSION_A[i - 1])))));
            // the same rows without the index on the join column
            tables.put("u" + i, new TableStatistics.Table(rows, 1, List.of(
                    new TableStatistics.Index(List.of("id"), true, List.of(rows)))));
        }
        return TableStatistics.of(tables);
    }

    static double priced(String sql, int prune) {
        OptimizerSettings settings = OptimizerSettings.MARIADB_DEFAULTS.with("optimizer_prune_level",
                Integer.toString(prune));
        return COUNTING.estimate(sql, settings, PreparedStatementTexts.NONE, CATALOG).searchSeconds();
    }

    static String star(int... dimensions) {
        return "SELECT count(*) FROM f " + IntStream.of(dimensions)
                .mapToObj(i -> "JOIN s" + i + " ON f.d" + i + " = s" + i + ".id").collect(Collectors.joining(" "));
    }

    @Test
    void withoutPruningTheCountIsTheServersForStarsCliquesAndSmallChains() {
        // best_access_path entries of MariaDB 10.11's optimizer trace, optimizer_prune_level = 0
        assertThat(priced(SyntheticJoins.star(4), 0)).isEqualTo(40);
        assertThat(priced(SyntheticJoins.star(8), 0)).isEqualTo(539);
        assertThat(priced(SyntheticJoins.clique(5), 0)).isEqualTo(309);
        assertThat(priced(SyntheticJoins.clique(6), 0)).isEqualTo(1716);
        assertThat(priced(SyntheticJoins.chain(4), 0)).isEqualTo(32);
        assertThat(priced(star(10, 11, 12, 13, 14, 15), 0)).isEqualTo(914);
        assertThat(priced(SyntheticJoins.chain(8), 0)).isBetween(487 * 0.8, 487 * 1.2);
    }

    @Test
    void anExtensionWeighsTheKeyLookupsItsPartialPlanReaches() {
        CompileEstimator lookups = new CompileEstimator(new MySqlDialect(
                new MySqlCoefficients(0, 0, 0, 0, 0, 0, 0, 1), OptimizerSettings.MARIADB_DEFAULTS));
        OptimizerSettings noPruning = OptimizerSettings.MARIADB_DEFAULTS.with("optimizer_prune_level", "0");

        // 1,716 extensions: the 6 of the empty plan reach no key, every later one reaches its table's key on a
        assertThat(lookups.estimate(SyntheticJoins.clique(6), noPruning, PreparedStatementTexts.NONE, CATALOG)
                .searchSeconds()).isEqualTo(1716 - 6);
        // the same tables without that index: every extension scans
        assertThat(lookups.estimate(SyntheticJoins.clique("u", 6), noPruning, PreparedStatementTexts.NONE, CATALOG)
                .searchSeconds()).isZero();
    }

    @Test
    void withPruningTheCountIsCloseToTheServers() {
        // optimizer_prune_level = 2: the trace's counts
        assertThat(priced(SyntheticJoins.clique(4), 2)).isEqualTo(28);
        assertThat(priced(SyntheticJoins.clique(6), 2)).isEqualTo(96);
        assertThat(priced(SyntheticJoins.clique(12), 2)).isEqualTo(800);
        assertThat(priced(SyntheticJoins.chain(8), 2)).isBetween(149 * 0.9, 149 * 1.15);
        assertThat(priced(SyntheticJoins.chain(14), 2)).isBetween(656 * 0.9, 656 * 1.15);
        // optimizer_prune_level = 1: no chains of unique keys
        assertThat(priced(SyntheticJoins.star(14), 1)).isEqualTo(5382);
        assertThat(priced(SyntheticJoins.chain(14), 1)).isEqualTo(1008);
    }

    @Test
    void withPruneLevelTwoAChainOfUniqueKeysIsFollowedAlone() {
        // Once f is joined each dimension is one row through its primary key: the trace prices one table a step
        // there (eq_ref_extension_by_limited_search), where prune level 1 prices every dimension left
        assertThat(priced(SyntheticJoins.star(6), 2)).isEqualTo(152);
        assertThat(priced(SyntheticJoins.star(8), 2)).isEqualTo(464);
        assertThat(priced(SyntheticJoins.star(10), 2)).isEqualTo(1177);
        assertThat(priced(SyntheticJoins.star(12), 2)).isEqualTo(2536);
        assertThat(priced(SyntheticJoins.star(14), 2)).isEqualTo(4691);
    }

    @Test
    void whichTablesAStarJoinsDecidesWhetherTheBoundCutsItsSearch() {
        // bench/log/mysql-optimizer.md: s1..s12 and s1..s12 with s14 searched for under a millisecond,
        // s1..s13, s2..s14 and s10..s22 (14 tables each) for more than 5 s
        double fast = priced(star(IntStream.rangeClosed(1, 12).toArray()), 0);
        double alsoFast = priced(star(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14), 0);
        assertThat(fast).isLessThan(10_000);
        assertThat(alsoFast).isLessThan(10_000);
        for (int[] slow : new int[][] {IntStream.rangeClosed(1, 13).toArray(), IntStream.rangeClosed(2, 14).toArray(),
                IntStream.rangeClosed(10, 22).toArray()}) {
            assertThat(priced(star(slow), 0)).isGreaterThan(MySqlPlannerModel.PRICED_BUDGET);
        }
    }

    @Test
    void withoutStatisticsTheSearchIsCountedFromItsGraph() {
        OptimizerSettings noPruning = OptimizerSettings.MARIADB_DEFAULTS.with("optimizer_prune_level", "0");
        double graphOnly = COUNTING.estimate(star(IntStream.rangeClosed(1, 12).toArray()), noPruning).searchSeconds();
        assertThat(graphOnly).isGreaterThan(1_000_000);
    }
}

package io.memogate.estimator;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.planner.IndexedColumns;
import io.memogate.estimator.planner.PartitionedTables;
import io.memogate.estimator.planner.PartitionedTables.Partitioning;
import io.memogate.estimator.postgres.PlannerSettings;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Partitioned tables, as the catalog describes them: PostgreSQL plans a child relation per partition and, with
 * enable_partitionwise_join, a child join per partition for every pair of tables partitioned alike. Measured on
 * PostgreSQL 18 with hash-partitioned tables of 256 partitions joined USING (id), collapse limits 20: 8 tables in
 * 18 MB with partitionwise joins off and 2.94 GB with them on (figures for every shape: PartitionAccuracyIT,
 * bench/RESULTS.md).
 */
class PartitionEstimateTest {

    private static final PlannerSettings WIDE = PlannerSettings.DEFAULTS.with("join_collapse_limit", "20")
            .with("from_collapse_limit", "20").with("geqo_threshold", "20");

    private final CompileEstimator estimator = new CompileEstimator();

    private static Catalog partitioned(int tables, int partitions) {
        Map<String, Partitioning> known = new HashMap<>();
        for (int i = 0; i < tables; i++) {
            known.put("p" + i, new Partitioning('h', partitions));
        }
        known.put("small", new Partitioning('h', 16));
        return new Catalog(IndexedColumns.NONE, ViewDefinitions.NONE, FunctionDefinitions.NONE,
                RoutineDefinitions.NONE, TriggerDefinitions.NONE, PartitionedTables.of(known));
    }

    private static String join(int n) {
        return "select count(*) from p0 " + IntStream.range(1, n).mapToObj(i -> "join p" + i + " using (id)")
                .collect(Collectors.joining(" "));
    }

    private CompileEstimate estimate(String sql, PlannerSettings settings, Catalog catalog) {
        return estimator.estimate(sql, settings, PreparedStatementTexts.NONE, catalog);
    }

    @Test
    void everyPartitionIsAChildRelationAndPartitionwiseJoinsMultiplyThePairs() {
        Catalog catalog = partitioned(8, 256);
        CompileEstimate off = estimate(join(4), WIDE, catalog);
        assertThat(off.terms().partitions()).isEqualTo(4 * 256);
        assertThat(off.terms().partitionwisePairs()).isZero();
        assertThat(off.terms().extraJoinClauses()).as("USING (id) throughout: one equivalence class").isZero();

        CompileEstimate on = estimate(join(4), WIDE.with("enable_partitionwise_join", "on"), catalog);
        assertThat(on.terms().joinPairs()).isEqualTo(25); // a clique of 4
        assertThat(on.terms().partitionwisePairs()).isEqualTo(25 * 256);
        assertThat(on.estimatedBytes()).isGreaterThan(5 * off.estimatedBytes());

        CompileEstimate withoutCatalog = estimate(join(4), WIDE.with("enable_partitionwise_join", "on"), Catalog.NONE);
        assertThat(withoutCatalog.terms().partitions()).isZero();
        assertThat(withoutCatalog.terms().partitionwisePairs()).isZero();
    }

    @Test
    void onlyTablesPartitionedAlikeJoinPartitionwise() {
        CompileEstimate mixed = estimate("select count(*) from p0 join p1 using (id) join small using (id)"
                + " join plain using (id)", WIDE.with("enable_partitionwise_join", "on"), partitioned(2, 64));
        assertThat(mixed.terms().partitions()).isEqualTo(64 + 64 + 16);
        assertThat(mixed.terms().partitionwisePairs()).as("p0 with p1 only").isEqualTo(64);
    }

    @Test
    void eightTablesOf256PartitionsJoinedPartitionwiseAreEstimatedInGigabytes() {
        Catalog catalog = partitioned(8, 256);
        CompileEstimate off = estimate(join(8), WIDE, catalog);
        CompileEstimate on = estimate(join(8), WIDE.with("enable_partitionwise_join", "on"), catalog);
        assertThat(off.estimatedBytes()).isBetween(9_000_000L, 36_000_000L); // 18.3 MB measured
        assertThat(on.estimatedBytes()).isBetween(1_500_000_000L, 6_000_000_000L); // 2.94 GB measured
    }

    @Test
    void aScanOfManyPartitionsTakesAdmissionAndOfFewBypasses() {
        Catalog catalog = partitioned(1, 1024);
        CompileEstimate many = estimate("select * from p0 where v = 1", PlannerSettings.DEFAULTS, catalog);
        assertThat(many.bypass()).isFalse();
        assertThat(many.terms().partitions()).isEqualTo(1024);
        assertThat(estimate("select * from small where v = 1", PlannerSettings.DEFAULTS, catalog).bypass()).isTrue();
    }

    @Test
    void aSetInTheSameTextTurnsPartitionwiseJoinsOn() {
        Catalog catalog = partitioned(4, 64);
        CompileEstimate e = estimate("set enable_partitionwise_join = on; " + join(4), WIDE, catalog);
        assertThat(e.terms().partitionwisePairs()).isEqualTo(25 * 64);
    }

    private static Catalog keyed(int tables, int partitions) {
        Map<String, Partitioning> known = new HashMap<>();
        for (int i = 0; i < tables; i++) {
            known.put("p" + i, new Partitioning('h', partitions, List.of("id")));
        }
        known.put("unkeyed", new Partitioning('h', partitions));
        return new Catalog(IndexedColumns.NONE, ViewDefinitions.NONE, FunctionDefinitions.NONE,
                RoutineDefinitions.NONE, TriggerDefinitions.NONE, PartitionedTables.of(known));
    }

    @Test
    void aKeyEqualToConstantsLeavesOnePartitionPerValue() {
        Catalog catalog = keyed(1, 256);
        assertThat(estimate("select * from p0 where id = 5", PlannerSettings.DEFAULTS, catalog).terms().partitions())
                .isEqualTo(1);
        assertThat(estimate("select * from p0 where ID = $1", PlannerSettings.DEFAULTS, catalog).terms().partitions())
                .as("a parameter, as a custom plan binds it").isEqualTo(1);
        assertThat(estimate("select * from p0 where id in (1, 2, 3) and v > 0", PlannerSettings.DEFAULTS, catalog)
                .terms().partitions()).isEqualTo(3);
        assertThat(estimate("select * from p0 where v = 5", PlannerSettings.DEFAULTS, catalog).terms().partitions())
                .as("not the key").isEqualTo(256);
        assertThat(estimate("select * from p0 where id + 0 = 5", PlannerSettings.DEFAULTS, catalog).terms()
                .partitions()).as("an expression of the key").isEqualTo(256);
        assertThat(estimate("select * from unkeyed where id = 5", PlannerSettings.DEFAULTS, catalog).terms()
                .partitions()).as("a key the catalog did not name").isEqualTo(256);
    }

    @Test
    void aPinnedKeyPrunesEveryTableEqualToItAndTheirPartitionwiseJoins() {
        Catalog catalog = keyed(4, 256);
        PlannerSettings partitionwise = WIDE.with("enable_partitionwise_join", "on");
        CompileEstimate pruned = estimate(join(4) + " where p0.id = 7", partitionwise, catalog);
        assertThat(pruned.terms().partitions()).isEqualTo(4);
        assertThat(pruned.terms().cartesianPairs()).as("a class holding a constant joins nothing: 4 (2^3 - 1) pairs")
                .isEqualTo(28);
        assertThat(pruned.terms().partitionwisePairs()).as("each pair, over one live partition").isEqualTo(28);
        CompileEstimate whole = estimate(join(4), partitionwise, catalog);
        assertThat(whole.terms().partitionwisePairs()).isEqualTo(25 * 256);
        assertThat(pruned.estimatedBytes()).isLessThan(whole.estimatedBytes() / 20);
    }

    @Test
    void anOuterJoinsConditionDoesNotPruneItsOuterSide() {
        Catalog catalog = keyed(2, 64);
        CompileEstimate e = estimate("select * from p0 left join p1 on p0.id = p1.id and p0.id = 5",
                PlannerSettings.DEFAULTS, catalog);
        assertThat(e.terms().partitions()).isEqualTo(64 + 64);
        CompileEstimate where = estimate("select * from p0 left join p1 on p0.id = p1.id where p0.id = 5",
                PlannerSettings.DEFAULTS, catalog);
        assertThat(where.terms().partitions()).as("WHERE filters p0's scan").isLessThan(64 + 64);
    }

    @Test
    void partitionwiseAggregationGroupsEachPartitionOfAPartitionedInput() {
        Catalog catalog = keyed(2, 256);
        PlannerSettings on = PlannerSettings.DEFAULTS.with("enable_partitionwise_aggregate", "on");
        PlannerSettings both = on.with("enable_partitionwise_join", "on");
        assertThat(estimate("select v, count(*) from p0 group by v", PlannerSettings.DEFAULTS, catalog).terms()
                .partitionwiseGroupings()).as("the setting off").isZero();
        CompileEstimate grouped = estimate("select v, count(*) from p0 group by v", on, catalog);
        assertThat(grouped.terms().partitionwiseGroupings()).isEqualTo(256);
        assertThat(grouped.estimatedBytes()).as("2.6 MB measured, 1.16 MB with the setting off")
                .isBetween(1_300_000L, 5_200_000L);
        assertThat(estimate("select count(*) from p0", on, catalog).terms().partitionwiseGroupings())
                .as("no GROUP BY: partial aggregation per partition").isEqualTo(256);
        assertThat(estimate("select count(*) from p0 where id = 5", on, catalog).terms().partitionwiseGroupings())
                .as("pruned to one partition").isEqualTo(1);
        assertThat(estimate("select distinct v from p0", on, catalog).terms().partitionwiseGroupings())
                .as("DISTINCT is not grouping").isZero();
        assertThat(estimate("select v, count(*) from p0 group by rollup (v)", on, catalog).terms()
                .partitionwiseGroupings()).as("grouping sets").isZero();
        String join = "select p0.v, count(*) from p0 join p1 using (id) group by p0.v";
        assertThat(estimate(join, on, catalog).terms().partitionwiseGroupings())
                .as("a join not made partitionwise is not partitioned").isZero();
        assertThat(estimate(join, both, catalog).terms().partitionwiseGroupings()).isEqualTo(256);
        assertThat(estimate("select count(*) from p0 join plain on plain.id = p0.id", both, catalog).terms()
                .partitionwiseGroupings()).as("joined to a table not partitioned").isZero();
    }

    @Test
    void aGroupedTableOfFewerPartitionsIsEstimatedWhenGroupedPartitionwise() {
        Catalog catalog = keyed(1, 64);
        String grouped = "select v, count(*) from p0 group by v";
        assertThat(estimate(grouped, PlannerSettings.DEFAULTS, catalog).bypass()).as("0.31 MB measured").isTrue();
        CompileEstimate on = estimate(grouped, PlannerSettings.DEFAULTS.with("enable_partitionwise_aggregate", "on"),
                catalog);
        assertThat(on.bypass()).isFalse();
        assertThat(on.estimatedBytes()).as("0.64 MB measured").isBetween(320_000L, 1_280_000L);
    }
}

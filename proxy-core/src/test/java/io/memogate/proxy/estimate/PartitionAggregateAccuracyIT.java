package io.memogate.proxy.estimate;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.Catalog;
import io.memogate.estimator.CompileEstimate;
import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.PreparedStatementTexts;
import io.memogate.estimator.postgres.PlannerSettings;
import io.memogate.proxy.postgres.calibrate.PlannerMemory;
import io.memogate.proxy.postgres.catalog.ServerCatalog;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgresExtension;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Grouping over hash-partitioned tables of 16 to 1,024 partitions, estimated with the catalog as the proxy reads it,
 * against what PostgreSQL 18 reports with EXPLAIN (SUMMARY, MEMORY), with enable_partitionwise_aggregate off and on
 * (and partitionwise joins on, so that a join of two such tables is partitioned too): every statement that plans in
 * 256 kB or more is estimated within 2x. Partitionwise aggregation plans a grouping relation per partition, which
 * more than doubles the planner memory of a table of 1,024 partitions grouped by its key (4.7 to 11.7 MB).
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class PartitionAggregateAccuracyIT {

    /** The smallest planner memory the coefficients were fitted on (see PartitionAccuracyIT). */
    private static final long FITTED_FROM = 256 * 1024;

    private final CompileEstimator estimator = new CompileEstimator();

    @Test
    void groupingOverPartitionedTablesIsEstimatedWithinTwiceTheMeasuredPlannerMemory(EmbeddedPostgres pg)
            throws Exception {
        pg.createDatabase("partitionagg", "postgres");
        List<String> failures = new ArrayList<>();
        try (Connection connection = pg.connect("partitionagg"); Statement statement = connection.createStatement()) {
            int[] sizes = {16, 64, 256, 1024};
            for (int partitions : sizes) {
                create(statement, partitions, 2);
            }
            PlannerMemory memory = new PlannerMemory(connection);
            memory.set("enable_partitionwise_join", "on");
            Catalog catalog = ServerCatalog.read(connection);
            for (String aggregate : List.of("off", "on")) {
                memory.set("enable_partitionwise_aggregate", aggregate);
                PlannerSettings settings = PlannerSettings.DEFAULTS.with("enable_partitionwise_join", "on")
                        .with("enable_partitionwise_aggregate", aggregate);
                for (int partitions : sizes) {
                    String t0 = "h" + partitions + "_0";
                    String t1 = "h" + partitions + "_1";
                    List<String> statements = List.of(
                            "select count(*) from " + t0,
                            "select v, count(*) from " + t0 + " group by v",
                            "select id, sum(v), max(v) from " + t0 + " group by id",
                            "select id, count(*) from " + t0 + " join " + t1 + " using (id) group by id",
                            "select " + t0 + ".v, count(*) from " + t0 + " join " + t1 + " using (id) group by "
                                    + t0 + ".v");
                    for (String sql : statements) {
                        compare(memory, catalog, settings, sql, sql + ", partitionwise aggregate " + aggregate,
                                failures);
                    }
                }
            }
        }
        assertThat(failures).as("partitioned grouping estimates off by more than 2x").isEmpty();
    }

    private void compare(PlannerMemory memory, Catalog catalog, PlannerSettings settings, String sql, String name,
                         List<String> failures) throws Exception {
        long actual = memory.measure(sql);
        CompileEstimate estimate = estimator.estimate(sql, settings, PreparedStatementTexts.NONE, catalog);
        double ratio = (double) estimate.estimatedBytes() / actual;
        System.out.printf("partition aggregate accuracy: %5.2fx  estimated %,14d  measured %,14d  %s%n", ratio,
                estimate.estimatedBytes(), actual, name);
        if (actual >= FITTED_FROM && (ratio < 0.5 || ratio > 2.0)) {
            failures.add(String.format("%s: %.2fx (estimated %d, measured %d)", name, ratio,
                    estimate.estimatedBytes(), actual));
        }
    }

    private static void create(Statement statement, int partitions, int tables) throws Exception {
        for (int t = 0; t < tables; t++) {
            String table = "h" + partitions + "_" + t;
            statement.execute("create table " + table + " (id int, v int) partition by hash (id)");
            StringBuilder children = new StringBuilder();
            for (int k = 0; k < partitions; k++) {
                children.append("create table ").append(table).append("_p").append(k).append(" partition of ")
                        .append(table).append(" for values with (modulus ").append(partitions)
                        .append(", remainder ").append(k).append(");");
            }
            statement.execute(children.toString());
        }
    }
}

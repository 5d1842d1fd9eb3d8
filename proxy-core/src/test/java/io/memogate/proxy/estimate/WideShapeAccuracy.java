package io.memogate.proxy.estimate;

import io.memogate.estimator.CompileEstimate;
import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.postgres.PlannerSettings;
import io.memogate.proxy.postgres.calibrate.PlannerMemory;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Plans join shapes over empty tables t0 ... t{tables - 1} (columns a, b, c and k1 ... k{tables}) with wide
 * collapse limits and compares each estimate with the planner memory EXPLAIN (SUMMARY, MEMORY) reports.
 */
final class WideShapeAccuracy {

    /** What was measured: the statements above 1 MB and those of them estimated outside 2x. */
    record Outcome(int measured, List<String> misses) {
    }

    private static final PlannerSettings WIDE = PlannerSettings.DEFAULTS
            .with("join_collapse_limit", "20").with("from_collapse_limit", "20").with("geqo_threshold", "20");

    private WideShapeAccuracy() {
    }

    static Outcome measure(EmbeddedPostgres pg, String database, int tables, List<String> shapes) throws Exception {
        CompileEstimator estimator = new CompileEstimator();
        pg.createDatabase(database, "postgres");
        List<String> misses = new ArrayList<>();
        int measured = 0;
        try (Connection connection = pg.connect(database); Statement statement = connection.createStatement()) {
            for (int i = 0; i < tables; i++) {
                // k1..k{tables} give a star's centre a distinct column per arm: arms joined on one column
                // would form one equivalence class, which PostgreSQL plans as a clique.
                statement.execute("create table t" + i + " (a int, b int, c int, "
                        + IntStream.rangeClosed(1, tables).mapToObj(k -> "k" + k + " int").collect(Collectors.joining(", "))
                        + ")");
            }
            statement.execute("analyze");
            statement.execute("set join_collapse_limit = 20");
            statement.execute("set from_collapse_limit = 20");
            statement.execute("set geqo_threshold = 20");
            for (String sql : shapes) {
                long actualBytes = new PlannerMemory(connection).measure(sql);
                if (actualBytes <= 1024 * 1024) {
                    continue;
                }
                measured++;
                CompileEstimate estimate = estimator.estimate(sql, WIDE);
                double ratio = (double) estimate.estimatedBytes() / actualBytes;
                System.out.printf("accuracy: %5.2fx  estimated %,13d  measured %,13d  %d relations, %,d pairs%n", ratio,
                        estimate.estimatedBytes(), actualBytes, estimate.relations(), estimate.memoPairs());
                if (ratio < 0.5 || ratio > 2.0) {
                    misses.add(String.format("%.2fx (estimated %d, measured %d): %s", ratio,
                            estimate.estimatedBytes(), actualBytes, sql));
                }
            }
        }
        return new Outcome(measured, misses);
    }
}

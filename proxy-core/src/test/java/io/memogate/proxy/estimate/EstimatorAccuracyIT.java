package io.memogate.proxy.estimate;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.CompileEstimate;
import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.postgres.PlannerSettings;
import io.memogate.proxy.postgres.calibrate.PlannerMemory;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgresExtension;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The estimator against the real planner: for synthetic join shapes whose planning takes more than
 * 1 MB, the estimate must be within 2x of what PostgreSQL 18 reports with EXPLAIN (SUMMARY, MEMORY).
 * Shapes stay small enough (at most ~130 MB of planner memory) for a shared two-core machine.
 *
 * <p>The joins are equalities, as in the measurements the memory model was fitted to. Non-equality join
 * clauses give the planner fewer paths per joined pair (no hash or merge joins): a clique of 8 tables
 * joined by {@code ti.a + tj.b = k} used 1.9 MB where the model says 7.2 MB. That over-estimate errs on
 * the safe side and is left to calibration.
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class EstimatorAccuracyIT {

    private static final int TABLES = 14;

    private final CompileEstimator estimator = new CompileEstimator();
    private final PlannerSettings wide = PlannerSettings.DEFAULTS
            .with("join_collapse_limit", "20").with("from_collapse_limit", "20").with("geqo_threshold", "20");

    @Test
    void estimatesAreWithinTwiceTheMeasuredPlannerMemory(EmbeddedPostgres pg) throws Exception {
        pg.createDatabase("accuracy", "postgres");
        List<String> failures = new ArrayList<>();
        int measured = 0;
        try (Connection connection = pg.connect("accuracy"); Statement statement = connection.createStatement()) {
            for (int i = 0; i < TABLES; i++) {
                // k1..k15 give the star's centre a distinct column per arm: arms joined on one column
                // would form one equivalence class, which PostgreSQL plans as a clique.
                statement.execute("create table t" + i + " (a int, b int, c int, "
                        + IntStream.rangeClosed(1, TABLES).mapToObj(k -> "k" + k + " int").collect(Collectors.joining(", "))
                        + ")");
            }
            statement.execute("analyze");
            statement.execute("set join_collapse_limit = 20");
            statement.execute("set from_collapse_limit = 20");
            statement.execute("set geqo_threshold = 20");
            for (String sql : shapes()) {
                long actualBytes = plannerMemory(statement, sql);
                if (actualBytes <= 1024 * 1024) {
                    continue;
                }
                measured++;
                CompileEstimate estimate = estimator.estimate(sql, wide);
                double ratio = (double) estimate.estimatedBytes() / actualBytes;
                System.out.printf("accuracy: %5.2fx  estimated %,13d  measured %,13d  %d relations, %,d pairs%n", ratio,
                        estimate.estimatedBytes(), actualBytes, estimate.relations(), estimate.memoPairs());
                if (ratio < 0.5 || ratio > 2.0) {
                    failures.add(String.format("%.2fx (estimated %d, measured %d): %s", ratio,
                            estimate.estimatedBytes(), actualBytes, sql));
                }
            }
        }
        assertThat(measured).as("statements above 1 MB").isGreaterThanOrEqualTo(8);
        assertThat(failures).as("estimates off by more than 2x").isEmpty();
    }

    /** Star, chain, cycle and clique joins of growing size, written as FROM lists with WHERE equalities. */
    private static List<String> shapes() {
        List<String> sql = new ArrayList<>();
        for (int n = 8; n <= 13; n++) {
            sql.add(query(n, IntStream.range(1, n).mapToObj(i -> "t0.k" + i + " = t" + i + ".a").toList()));
        }
        for (int n = 10; n <= 14; n += 2) {
            sql.add(query(n, IntStream.range(1, n).mapToObj(i -> "t" + (i - 1) + ".b = t" + i + ".a").toList()));
            List<String> cycle = new ArrayList<>(IntStream.range(1, n).mapToObj(i -> "t" + (i - 1) + ".b = t" + i + ".a").toList());
            cycle.add("t" + (n - 1) + ".b = t0.c");
            sql.add(query(n, cycle));
        }
        for (int n = 7; n <= 9; n++) {
            List<String> clique = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                for (int j = i + 1; j < n; j++) {
                    clique.add("t" + i + ".a = t" + j + ".a"); // one equivalence class joining every pair
                }
            }
            sql.add(query(n, clique));
        }
        return sql;
    }

    private static String query(int n, List<String> predicates) {
        String from = IntStream.range(0, n).mapToObj(i -> "t" + i).collect(Collectors.joining(", "));
        return "select count(*) from " + from + " where " + String.join(" and ", predicates);
    }

    private static long plannerMemory(Statement statement, String sql) throws Exception {
        return new PlannerMemory(statement.getConnection()).measure(sql);
    }
}

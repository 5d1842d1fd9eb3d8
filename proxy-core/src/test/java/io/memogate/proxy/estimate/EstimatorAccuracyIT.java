package io.memogate.proxy.estimate;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgresExtension;
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

    @Test
    void estimatesAreWithinTwiceTheMeasuredPlannerMemory(EmbeddedPostgres pg) throws Exception {
        WideShapeAccuracy.Outcome outcome = WideShapeAccuracy.measure(pg, "accuracy", TABLES, shapes());
        assertThat(outcome.measured()).as("statements above 1 MB").isGreaterThanOrEqualTo(8);
        assertThat(outcome.misses()).as("estimates off by more than 2x").isEmpty();
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

}

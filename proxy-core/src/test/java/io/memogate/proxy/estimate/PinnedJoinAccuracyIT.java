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
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Joins whose join column is pinned to one constant ({@code t0 JOIN t1 USING (id) ... WHERE t0.id = 5}), against
 * what PostgreSQL 18 reports with EXPLAIN (SUMMARY, MEMORY), collapse limits 20. The constant enters the
 * equivalence class, so PostgreSQL builds no join clause and joins every table to every other as a Cartesian
 * product: fewer paths per join relation than the same join unpinned, but more join relations than its clauses
 * would allow. Each estimate within 2x; a parameter in place of the constant is estimated alike, as the custom
 * plan PostgreSQL makes with its value.
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class PinnedJoinAccuracyIT {

    private final CompileEstimator estimator = new CompileEstimator();
    private final PlannerSettings wide = PlannerSettings.DEFAULTS.with("join_collapse_limit", "20")
            .with("from_collapse_limit", "20").with("geqo_threshold", "20");

    @Test
    void joinsPinnedToOneConstantAreEstimatedWithinTwiceTheirPlannerMemory(EmbeddedPostgres pg) throws Exception {
        pg.createDatabase("pinned", "postgres");
        List<String> failures = new ArrayList<>();
        try (Connection connection = pg.connect("pinned"); Statement statement = connection.createStatement()) {
            for (int t = 0; t < 9; t++) {
                statement.execute("create table d" + t + " (id int primary key, v int)");
                statement.execute("insert into d" + t + " select g, g % 7 from generate_series(1, 2000) g");
                statement.execute("analyze d" + t);
            }
            PlannerMemory memory = new PlannerMemory(connection);
            memory.set("join_collapse_limit", "20");
            memory.set("from_collapse_limit", "20");
            memory.set("geqo_threshold", "20");
            Catalog catalog = ServerCatalog.read(connection);
            for (int tables = 5; tables <= 9; tables++) {
                String join = "select count(*) from d0 " + IntStream.range(1, tables)
                        .mapToObj(i -> "join d" + i + " using (id)").collect(Collectors.joining(" "));
                for (String sql : List.of(join + " where d0.id = 5", join + " where d0.id = $1")) {
                    long actual = memory.measure(sql.replace("$1", "5"));
                    CompileEstimate estimate = estimator.estimate(sql, wide, PreparedStatementTexts.NONE, catalog);
                    double ratio = (double) estimate.estimatedBytes() / actual;
                    System.out.printf("pinned join accuracy: %5.2fx  estimated %,12d  measured %,12d  %s%n", ratio,
                            estimate.estimatedBytes(), actual, sql);
                    if (ratio < 0.5 || ratio > 2.0) {
                        failures.add(String.format("%s: %.2fx (estimated %d, measured %d)", sql, ratio,
                                estimate.estimatedBytes(), actual));
                    }
                }
            }
        }
        assertThat(failures).as("pinned join estimates off by more than 2x").isEmpty();
    }
}

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
 * LEFT joins PostgreSQL removes before the join search ({@code remove_useless_joins}): a nullable side that is
 * one table joined on its primary key and read by nothing else. Stars of 2,000-row tables whose outer arms are
 * such joins, planned with wide collapse limits: the estimate must follow the smaller search when nothing reads
 * the arms and the full one when the select list does, within 2x of EXPLAIN (SUMMARY, MEMORY) either way.
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class JoinRemovalAccuracyIT {

    private static final int TABLES = 13;
    private static final PlannerSettings WIDE = PlannerSettings.DEFAULTS
            .with("join_collapse_limit", "20").with("from_collapse_limit", "20").with("geqo_threshold", "20");

    @Test
    void leftJoinsNothingReadsAreEstimatedAsThePlannerRemovesThem(EmbeddedPostgres pg) throws Exception {
        CompileEstimator estimator = new CompileEstimator();
        pg.createDatabase("join_removal", "postgres");
        List<String> misses = new ArrayList<>();
        try (Connection connection = pg.connect("join_removal"); Statement statement = connection.createStatement()) {
            String keys = IntStream.range(0, TABLES).mapToObj(k -> "k" + k + " int").collect(Collectors.joining(", "));
            String values = IntStream.range(0, TABLES).mapToObj(k -> "(random() * 2000)::int")
                    .collect(Collectors.joining(", "));
            for (int i = 0; i < TABLES; i++) {
                statement.execute("create table t" + i + " (id int primary key, " + keys + ")");
                statement.execute("insert into t" + i + " select g, " + values + " from generate_series(1, 2000) g");
            }
            statement.execute("analyze");
            statement.execute("set join_collapse_limit = 20");
            statement.execute("set from_collapse_limit = 20");
            statement.execute("set geqo_threshold = 20");
            PlannerMemory memory = new PlannerMemory(connection);
            for (int n = 10; n <= TABLES; n++) {
                // inner arms on t0.kI = tI.id plus a cycle edge, so that the inner part is a search of its own size
                StringBuilder from = new StringBuilder("t0");
                int inner = n - 4;
                for (int i = 1; i < n; i++) {
                    from.append(i < inner ? " join t" : " left join t").append(i).append(" on t0.k").append(i)
                            .append(" = t").append(i).append(".id").append(i == 2 ? " and t1.k2 = t2.k1" : "");
                }
                String removable = "select count(*) from " + from;
                String kept = "select count(*), " + IntStream.range(inner, n).mapToObj(i -> "max(t" + i + ".k0)")
                        .collect(Collectors.joining(", ")) + " from " + from;
                long removableBytes = memory.measure(removable);
                long keptBytes = memory.measure(kept);
                CompileEstimate removableEstimate = estimator.estimate(removable, WIDE);
                CompileEstimate keptEstimate = estimator.estimate(kept, WIDE);
                System.out.printf("join removal, %d tables: removed %,d measured %,d estimated; kept %,d / %,d%n", n,
                        removableBytes, removableEstimate.estimatedBytes(), keptBytes, keptEstimate.estimatedBytes());
                assertThat(keptBytes).as("the planner removes the unread arms").isGreaterThan(2 * removableBytes);
                check(removable, removableEstimate, removableBytes, misses);
                check(kept, keptEstimate, keptBytes, misses);
            }
        }
        assertThat(misses).as("estimates off by more than 2x").isEmpty();
    }

    private static void check(String sql, CompileEstimate estimate, long measured, List<String> misses) {
        double ratio = (double) estimate.estimatedBytes() / measured;
        if (ratio < 0.5 || ratio > 2.0) {
            misses.add(String.format("%.2fx (estimated %d, measured %d): %s", ratio, estimate.estimatedBytes(),
                    measured, sql));
        }
    }
}

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
 * LEFT joins and the join order around them, against the real planner. First those PostgreSQL removes before
 * the join search ({@code remove_useless_joins}): a nullable side that is one table joined on its primary key and
 * read by nothing else. Stars of 2,000-row tables whose outer arms are
 * such joins, planned with wide collapse limits: the estimate must follow the smaller search when nothing reads
 * the arms and the full one when the select list does, within 2x of EXPLAIN (SUMMARY, MEMORY) either way.
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class LeftJoinAccuracyIT {

    private static final int TABLES = 13;
    private final CompileEstimator estimator = new CompileEstimator();
    private static final PlannerSettings WIDE = PlannerSettings.DEFAULTS
            .with("join_collapse_limit", "20").with("from_collapse_limit", "20").with("geqo_threshold", "20");

    @Test
    void leftJoinsNothingReadsAreEstimatedAsThePlannerRemovesThem(EmbeddedPostgres pg) throws Exception {
        List<String> misses = new ArrayList<>();
        try (Connection connection = withTables(pg, "join_removal")) {
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

    /**
     * An anti join whose condition reads the nullable side of a LEFT join written after a chain of inner joins:
     * PostgreSQL keeps the two in order by the LEFT join's whole sides and joins the chain's tables in every
     * combination, so the memory grows as a clique's does (0.2 MB for 4 tables, 178 MB for 10).
     */
    @Test
    void antiJoinsOverANullableSideAreEstimatedAsTheCombinationsPostgresBuilds(EmbeddedPostgres pg) throws Exception {
        List<String> misses = new ArrayList<>();
        try (Connection connection = withTables(pg, "anti_nullable")) {
            PlannerMemory memory = new PlannerMemory(connection);
            for (int n = 6; n <= 9; n++) {
                String chain = IntStream.range(1, n).mapToObj(i -> " join t" + i + " on t" + (i - 1) + ".k" + i + " = t"
                        + i + ".id").collect(Collectors.joining());
                String sql = "select count(*) from t0" + chain + " left join t10 x on t" + (n - 1) + ".k2 = x.k3"
                        + " where not exists (select 1 from t11 y where y.k9 = x.id)";
                long measured = memory.measure(sql);
                CompileEstimate estimate = estimator.estimate(sql, WIDE);
                System.out.printf("anti join over a nullable side, chain of %d: measured %,d estimated %,d%n", n,
                        measured, estimate.estimatedBytes());
                check(sql, estimate, measured, misses);
            }
        }
        assertThat(misses).as("estimates off by more than 2x").isEmpty();
    }

    /** A new database of {@value #TABLES} tables of 2,000 rows keyed by id, with wide collapse limits set. */
    private static Connection withTables(EmbeddedPostgres pg, String database) throws Exception {
        pg.createDatabase(database, "postgres");
        Connection connection = pg.connect(database);
        try (Statement statement = connection.createStatement()) {
            createTables(statement);
        }
        return connection;
    }

    private static void createTables(Statement statement) throws Exception {
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
    }

    private static void check(String sql, CompileEstimate estimate, long measured, List<String> misses) {
        double ratio = (double) estimate.estimatedBytes() / measured;
        if (ratio < 0.5 || ratio > 2.0) {
            misses.add(String.format("%.2fx (estimated %d, measured %d): %s", ratio, estimate.estimatedBytes(),
                    measured, sql));
        }
    }
}

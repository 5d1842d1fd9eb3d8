package io.memogate.proxy.it;

import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * A database of star-join tables on the shared server, for statements that plan with tens to hundreds
 * of megabytes: t0, the centre, with a column per arm, and arms t1..t15. Created once per server.
 */
final class StarSchema {

    static final String DATABASE = "admission";
    static final int ARMS = 15;
    /** Planner settings under which large joins plan exhaustively, as BI users set them. */
    static final String WIDE = "set join_collapse_limit = 20; set from_collapse_limit = 20; set geqo_threshold = 20";

    private StarSchema() {
    }

    static void ensure(EmbeddedPostgres pg) throws SQLException {
        ensure(pg, DATABASE);
    }

    /** The star's tables in {@code database} of {@code pg}, made if the database is not there yet. */
    static synchronized void ensure(EmbeddedPostgres pg, String database) throws SQLException {
        if (!pg.createDatabaseIfMissing(database, "memogate")) {
            return;
        }
        List<String> ddl = new ArrayList<>();
        for (int i = 0; i <= ARMS; i++) {
            // t0 is the star's centre with a distinct column per arm: arms on one column would form one
            // equivalence class, which PostgreSQL plans as a clique.
            ddl.add("create table t" + i + " (a int, "
                    + IntStream.rangeClosed(1, ARMS).mapToObj(k -> "k" + k + " int").collect(Collectors.joining(", ")) + ")");
        }
        ddl.add("analyze");
        pg.execute(database, ddl.toArray(String[]::new));
    }

    /** A star join of {@code tables} tables: about 26 MB of planner memory for 12, 125 MB for 14, with wide settings. */
    static String star(int tables, String tag) {
        StringBuilder sql = new StringBuilder("select count(*) /* " + tag + " */ from t0");
        for (int i = 1; i < tables; i++) {
            sql.append(" join t").append(i).append(" on t0.k").append(i).append(" = t").append(i).append(".a");
        }
        return sql.toString();
    }
}

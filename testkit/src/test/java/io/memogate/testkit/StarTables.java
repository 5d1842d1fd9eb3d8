package io.memogate.testkit;

import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** A database of star-join tables: t0, the centre, with a column per arm, and arms t1..t15. */
final class StarTables {

    static final int ARMS = 15;

    private StarTables() {
    }

    static void create(EmbeddedPostgres postgres, String database, String owner) throws SQLException {
        postgres.createDatabase(database, owner);
        List<String> ddl = new ArrayList<>(ddl());
        ddl.add("grant select on all tables in schema public to " + owner);
        postgres.execute(database, ddl.toArray(String[]::new));
    }

    /** The tables, made by whoever runs these statements. */
    static List<String> ddl() {
        List<String> ddl = new ArrayList<>();
        StringBuilder centre = new StringBuilder("create table t0 (id int primary key");
        for (int arm = 1; arm <= ARMS; arm++) {
            centre.append(", k").append(arm).append(" int");
            ddl.add("create table t" + arm + " (a int primary key, label text)");
        }
        ddl.add(centre.append(")").toString());
        return ddl;
    }

    /** A star join of {@code tables} tables. */
    static String star(int tables) {
        StringBuilder sql = new StringBuilder("select count(*) from t0");
        for (int i = 1; i < tables; i++) {
            sql.append(" join t").append(i).append(" on t0.k").append(i).append(" = t").append(i).append(".a");
        }
        return sql.toString();
    }
}

package io.memogate.proxy.postgres.calibrate;

import io.memogate.proxy.postgres.calibrate.tpc.TableLifetime;
import io.memogate.proxy.postgres.calibrate.tpc.TpcdsDatabase;
import io.memogate.proxy.postgres.calibrate.tpc.TpchDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;

/**
 * The corpora calibrate brings along, each over temporary tables it creates and fills in calibrate's own
 * session: the user's schema is never touched. Each is measured on its own and its tables dropped
 * ({@link #dropTables}) before the next, so that TPC-DS's {@code store} or TPC-H's {@code nation} never
 * hides a table of the same name from the user's own statements, which are measured last.
 */
public enum BuiltInCorpus {

    /** Join shapes whose search sizes are known in closed form ({@link SyntheticCorpus}). */
    SYNTHETIC {
        @Override
        public void createTables(Connection connection) throws SQLException {
            try (Statement statement = connection.createStatement()) {
                for (String sql : SyntheticCorpus.setup()) {
                    statement.execute(sql);
                }
            }
        }

        @Override
        public List<CorpusStatement> statements() {
            return SyntheticCorpus.statements();
        }
    },

    /** TPC-H's 22 queries over its eight tables at scale 0.01 (60,000 lineitem rows). */
    TPCH {
        @Override
        public void createTables(Connection connection) throws SQLException {
            TpchDatabase.load(connection, TableLifetime.SESSION);
            try (Statement statement = connection.createStatement()) {
                for (String sql : TpchDatabase.setup()) {
                    statement.execute(sql); // query 15's view: temporary, since its tables are
                }
            }
        }

        @Override
        public List<CorpusStatement> statements() {
            return named(TpchDatabase.queries());
        }
    },

    /** TPC-DS's 99 query templates over its 24 tables at scale 0.01, at most 100,000 rows a table. */
    TPCDS {
        @Override
        public void createTables(Connection connection) throws SQLException {
            TpcdsDatabase.load(connection, TableLifetime.SESSION);
        }

        @Override
        public List<CorpusStatement> statements() {
            return named(TpcdsDatabase.queries());
        }
    };

    /** The name on the command line and in the report: synthetic, tpch, tpcds. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Creates, fills and analyzes the corpus's temporary tables. */
    public abstract void createTables(Connection connection) throws SQLException;

    /** What to measure once the tables exist. */
    public abstract List<CorpusStatement> statements();

    /** Drops every temporary table and view of the session: the corpus's, and nothing of the user's. */
    public static void dropTables(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("DISCARD TEMP");
        }
    }

    /** {@code q5} becomes {@code tpch/q5}. */
    List<CorpusStatement> named(List<CorpusStatement> statements) {
        return statements.stream().map(s -> new CorpusStatement(label() + "/" + s.name(), s.sql())).toList();
    }
}

package io.memogate.proxy.postgres.embedded;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The demo's sales warehouse: database {@value #DATABASE}, owned by {@value #OWNER} (password
 * {@value #OWNER_PASSWORD}, stored as SCRAM), holding a fact table and 30 dimension tables in a
 * snowflake (demo-schema.sql). Reports over it join 15 to 20 tables; demo-queries.sql has examples.
 */
public final class DemoSchema {

    public static final String DATABASE = "demo";
    public static final String OWNER = "memogate";
    public static final String OWNER_PASSWORD = "memogate";
    /** The broker's own monitoring login (pg_monitor): it never shares the applications' credentials. */
    public static final String MONITOR = "memogate_monitor";
    public static final String MONITOR_PASSWORD = "memogate_monitor";

    private final EmbeddedPostgres server;

    public DemoSchema(EmbeddedPostgres server) {
        this.server = server;
    }

    /**
     * Creates the owner and the monitoring role (unless they exist) and the database, then loads the
     * schema as the owner so it owns every table. Runs in one transaction: a failure leaves an empty
     * database, not half a schema.
     */
    public void load() throws SQLException {
        if (!roleExists(OWNER)) {
            server.createUser(OWNER, OWNER_PASSWORD, PasswordKind.SCRAM);
        }
        if (!roleExists(MONITOR)) {
            server.createUser(MONITOR, MONITOR_PASSWORD, PasswordKind.SCRAM);
            server.execute("postgres", "GRANT pg_monitor TO " + MONITOR);
        }
        server.createDatabase(DATABASE, OWNER);
        try (Connection connection = server.connect(DATABASE, OWNER, OWNER_PASSWORD)) {
            connection.setAutoCommit(false);
            try (Statement statement = connection.createStatement()) {
                for (String sql : SqlScript.fromResource(DemoSchema.class, "demo-schema.sql")) {
                    executeNamingFailure(statement, sql);
                }
                connection.commit();
            } catch (SQLException e) {
                connection.rollback();
                throw e;
            }
        }
    }

    /** The example reports of demo-queries.sql, each joining 20 tables; each returns rows. */
    public static List<String> exampleQueries() {
        return SqlScript.fromResource(DemoSchema.class, "demo-queries.sql");
    }

    private boolean roleExists(String role) throws SQLException {
        try (Connection connection = server.connect("postgres");
             PreparedStatement query = connection.prepareStatement("SELECT 1 FROM pg_roles WHERE rolname = ?")) {
            query.setString(1, role);
            try (ResultSet rows = query.executeQuery()) {
                return rows.next();
            }
        }
    }

    /** Executes {@code sql}; on failure the exception names the statement, which the server's does not. */
    private static void executeNamingFailure(Statement statement, String sql) throws SQLException {
        try {
            statement.execute(sql);
        } catch (SQLException e) {
            String firstLine = sql.lines().filter(line -> !line.startsWith("--")).findFirst().orElse(sql);
            throw new SQLException("demo-schema.sql failed at: " + firstLine + " ...: " + e.getMessage(),
                    e.getSQLState(), e);
        }
    }
}

package io.memogate.bench.passthrough;

import io.memogate.bench.targets.Backend;
import io.memogate.bench.targets.ShippedMemogateTarget;
import io.memogate.proxy.postgres.embedded.DemoSchema;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgresOptions;
import io.memogate.proxy.postgres.embedded.PasswordKind;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;

/**
 * The server under every target: an embedded PostgreSQL 18 (run as nobody when we are root) with a
 * login role and an empty database for pgbench. shared_buffers holds the whole data set of the default
 * scale (10: about 160 MB with indexes), so the runs measure the relay, not the disk.
 */
final class BenchDatabase implements AutoCloseable {

    static final String DATABASE = "pgbench";
    static final String USER = "memogate";
    static final String PASSWORD = "memogate";

    private final EmbeddedPostgres server;
    private final String version;

    private BenchDatabase(EmbeddedPostgres server, String version) {
        this.server = server;
        this.version = version;
    }

    /** With PostgreSQL's default max_connections (100). */
    static BenchDatabase start() throws SQLException {
        return start(100);
    }

    /** @param maxConnections the server's max_connections: every target's sessions at once, and the monitor's */
    static BenchDatabase start(int maxConnections) throws SQLException {
        EmbeddedPostgres server = EmbeddedPostgres.start(EmbeddedPostgresOptions.builder()
                .setting("shared_buffers", "512MB")
                .setting("max_connections", Integer.toString(maxConnections))
                .build());
        try {
            server.createUser(USER, PASSWORD, PasswordKind.SCRAM);
            server.createDatabase(DATABASE, USER);
            // The shipped proxy's broker watches the server with its own role, as the demo's does.
            server.createUser(DemoSchema.MONITOR, DemoSchema.MONITOR_PASSWORD, PasswordKind.SCRAM);
            server.execute("postgres", "GRANT pg_monitor TO " + DemoSchema.MONITOR);
            return new BenchDatabase(server, serverVersion(server));
        } catch (SQLException | RuntimeException e) {
            server.close();
            throw e;
        }
    }

    Backend backend() {
        return new Backend(server.host(), server.port(), DATABASE, USER, PASSWORD,
                Optional.of(server.socketDirectory()));
    }

    /** The pg_monitor role the shipped proxy's broker polls with. */
    ShippedMemogateTarget.Login monitor() {
        return new ShippedMemogateTarget.Login(DemoSchema.MONITOR, DemoSchema.MONITOR_PASSWORD);
    }

    /** server_version, e.g. "18.0". */
    String version() {
        return version;
    }

    /** Settings the report shows, as the server reports them. */
    String settings() throws SQLException {
        try (Connection connection = server.connect(DATABASE);
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT string_agg(name || '=' || current_setting(name), ', '"
                     + " ORDER BY name) FROM pg_settings WHERE name IN ('shared_buffers', 'max_connections',"
                     + " 'fsync', 'synchronous_commit', 'password_encryption')")) {
            rows.next();
            return rows.getString(1);
        }
    }

    private static String serverVersion(EmbeddedPostgres server) throws SQLException {
        try (Connection connection = server.connect("postgres");
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SHOW server_version")) {
            rows.next();
            return rows.getString(1);
        }
    }

    @Override
    public void close() {
        server.close();
    }
}

package io.memogate.proxy.mysql.it;

import io.memogate.broker.probe.mysql.MariaDbServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The MySQL wing's tests' MariaDB: a private {@link MariaDbServer} (never the machine's own on 3306) with
 * grants on; {@link #USER} logs in with a password (mysql_native_password), and {@link #ED25519_USER} with
 * MariaDB's ed25519 plugin where it is installed.
 */
public final class PrivateMariaDb implements AutoCloseable {

    private static final Path ED25519_PLUGIN = Path.of("/usr/lib/mysql/plugin/auth_ed25519.so");

    public static final String USER = "memo";
    public static final String PASSWORD = "memo-secret";
    public static final String ED25519_USER = "memo_ed";
    public static final String ED25519_PASSWORD = "ed-secret";
    public static final String DATABASE = "memo";

    private final MariaDbServer server;
    private final boolean ed25519;

    private PrivateMariaDb(MariaDbServer server, boolean ed25519) {
        this.server = server;
        this.ed25519 = ed25519;
    }

    /** Why the tests cannot start one here; empty when they can. */
    public static String missing() {
        return MariaDbServer.missing();
    }

    public static PrivateMariaDb start() throws IOException, InterruptedException {
        return start(List.of());
    }

    /** A server started with {@code extraOptions} too ({@code --ssl-cert=...}). */
    public static PrivateMariaDb start(List<String> extraOptions) throws IOException, InterruptedException {
        boolean ed25519 = Files.exists(ED25519_PLUGIN);
        List<String> options = ed25519 ? concat(List.of("--plugin-load-add=auth_ed25519"), extraOptions) : extraOptions;
        PrivateMariaDb db = new PrivateMariaDb(MariaDbServer.start(options), ed25519);
        try {
            db.setUp();
        } catch (IOException | RuntimeException e) {
            db.close();
            throw e;
        }
        return db;
    }

    private static List<String> concat(List<String> first, List<String> second) {
        return Stream.concat(first.stream(), second.stream()).toList();
    }

    private void setUp() throws IOException, InterruptedException {
        StringBuilder sql = new StringBuilder()
                .append("CREATE DATABASE ").append(DATABASE).append(";\n")
                .append("CREATE USER ").append(USER).append("@'%' IDENTIFIED BY '").append(PASSWORD).append("';\n")
                .append("GRANT ALL ON *.* TO ").append(USER).append("@'%';\n");
        if (ed25519) {
            sql.append("CREATE USER ").append(ED25519_USER).append("@'%' IDENTIFIED VIA ed25519 USING PASSWORD('")
                    .append(ED25519_PASSWORD).append("');\n")
                    .append("GRANT ALL ON *.* TO ").append(ED25519_USER).append("@'%';\n");
        }
        server.asRoot(sql.toString());
    }

    public int port() {
        return server.port();
    }

    public boolean hasEd25519() {
        return ed25519;
    }

    /** Runs {@code sql} as root over the server's own socket, with the command-line client: its output. */
    public String asRoot(String sql) throws IOException, InterruptedException {
        return server.asRoot(sql);
    }

    @Override
    public void close() throws IOException, InterruptedException {
        server.close();
    }
}

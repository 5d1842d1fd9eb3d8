package io.memogate.proxy.mysql.it;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A MariaDB server of the tests' own, started from Debian's {@code /usr/sbin/mariadbd} with
 * {@code --no-defaults} in a fresh data directory, on a free port bound to 127.0.0.1: never the machine's own
 * server on 3306. Grants are on; {@link #USER} logs in with a password (mysql_native_password), and
 * {@link #ED25519_USER} with MariaDB's ed25519 plugin where it is installed.
 */
public final class PrivateMariaDb implements AutoCloseable {

    public static final Path MARIADBD = Path.of("/usr/sbin/mariadbd");
    private static final Path INSTALL_DB = Path.of("/usr/bin/mariadb-install-db");
    private static final Path CLIENT = Path.of("/usr/bin/mariadb");
    private static final Path ED25519_PLUGIN = Path.of("/usr/lib/mysql/plugin/auth_ed25519.so");

    public static final String USER = "memo";
    public static final String PASSWORD = "memo-secret";
    public static final String ED25519_USER = "memo_ed";
    public static final String ED25519_PASSWORD = "ed-secret";
    public static final String DATABASE = "memo";

    private final Path dir;
    private final int port;
    private final Process process;
    private final boolean ed25519;

    private PrivateMariaDb(Path dir, int port, Process process, boolean ed25519) {
        this.dir = dir;
        this.port = port;
        this.process = process;
        this.ed25519 = ed25519;
    }

    /** Why the tests cannot start one here; empty when they can. */
    public static String missing() {
        for (Path binary : List.of(MARIADBD, INSTALL_DB, CLIENT)) {
            if (!Files.isExecutable(binary)) {
                return binary + " is not installed (Debian: apt-get install mariadb-server; bin/memogate test installs it)";
            }
        }
        return "";
    }

    public static PrivateMariaDb start() throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("memogate-mariadb");
        run(List.of(INSTALL_DB.toString(), "--no-defaults", "--datadir=" + dir.resolve("data"), "--user=root",
                "--auth-root-authentication-method=normal", "--skip-test-db"), dir.resolve("install.log"));
        int port = freePort();
        boolean ed25519 = Files.exists(ED25519_PLUGIN);
        List<String> command = new ArrayList<>(List.of(MARIADBD.toString(), "--no-defaults",
                "--datadir=" + dir.resolve("data"), "--socket=" + dir.resolve("mariadb.sock"), "--port=" + port,
                "--bind-address=127.0.0.1", "--user=root", "--pid-file=" + dir.resolve("mariadb.pid"),
                "--log-error=" + dir.resolve("error.log"), "--max-allowed-packet=256M", "--skip-name-resolve",
                "--innodb-buffer-pool-size=64M"));
        if (ed25519) {
            command.add("--plugin-load-add=auth_ed25519");
        }
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dir.resolve("stdout.log").toFile()).start();
        PrivateMariaDb server = new PrivateMariaDb(dir, port, process, ed25519);
        try {
            server.setUp();
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
        return server;
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
        Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
        while (!Files.exists(dir.resolve("mariadb.sock"))) {
            if (!process.isAlive() || Instant.now().isAfter(deadline)) {
                throw new IOException("mariadbd did not start: " + Files.readString(dir.resolve("error.log")));
            }
            Thread.sleep(100); // a process's socket file: nothing to wait on but the file system
        }
        Path script = dir.resolve("setup.sql");
        Files.writeString(script, sql, StandardCharsets.UTF_8);
        run(List.of(CLIENT.toString(), "--no-defaults", "--socket=" + dir.resolve("mariadb.sock"), "--user=root",
                "-e", "source " + script), dir.resolve("setup.log"));
    }

    public int port() {
        return port;
    }

    public boolean hasEd25519() {
        return ed25519;
    }

    /** Runs {@code sql} as root over the server's own socket, with the command-line client: its output. */
    public String asRoot(String sql) throws IOException, InterruptedException {
        Path out = dir.resolve("root.log");
        run(List.of(CLIENT.toString(), "--no-defaults", "--socket=" + dir.resolve("mariadb.sock"), "--user=root",
                "--batch", "--skip-column-names", "-e", sql), out);
        return Files.readString(out);
    }

    private static void run(List<String> command, Path log) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IOException(command.get(0) + " did not finish: " + Files.readString(log));
        }
        if (process.exitValue() != 0) {
            throw new IOException(command.get(0) + " failed (" + process.exitValue() + "): " + Files.readString(log));
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() throws IOException, InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
    }
}

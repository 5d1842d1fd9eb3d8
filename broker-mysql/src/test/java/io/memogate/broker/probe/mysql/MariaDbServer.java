package io.memogate.broker.probe.mysql;

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
 * A MariaDB server of the tests' own, started from Debian's {@code /usr/sbin/mariadbd} with {@code --no-defaults}
 * in a fresh data directory, on a free port bound to 127.0.0.1: never the machine's own server on 3306. Root
 * logs in over the server's own Unix socket only; tests create the users they need with {@link #asRoot}.
 * The broker's probe tests and the proxy's MySQL wing tests share it (this module's test jar).
 */
public final class MariaDbServer implements AutoCloseable {

    public static final Path MARIADBD = Path.of("/usr/sbin/mariadbd");
    private static final Path INSTALL_DB = Path.of("/usr/bin/mariadb-install-db");
    public static final Path CLIENT = Path.of("/usr/bin/mariadb");

    private final Path dir;
    private final int port;
    private final Process process;

    private MariaDbServer(Path dir, int port, Process process) {
        this.dir = dir;
        this.port = port;
        this.process = process;
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

    /** A server with the usual options and {@code extraOptions} after them ({@code --performance-schema=ON}). */
    public static MariaDbServer start(List<String> extraOptions) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("memogate-mariadb");
        run(List.of(INSTALL_DB.toString(), "--no-defaults", "--datadir=" + dir.resolve("data"), "--user=root",
                "--auth-root-authentication-method=normal", "--skip-test-db"), dir.resolve("install.log"));
        int port = freePort();
        List<String> command = new ArrayList<>(List.of(MARIADBD.toString(), "--no-defaults",
                "--datadir=" + dir.resolve("data"), "--socket=" + dir.resolve("mariadb.sock"), "--port=" + port,
                "--bind-address=127.0.0.1", "--user=root", "--pid-file=" + dir.resolve("mariadb.pid"),
                "--log-error=" + dir.resolve("error.log"), "--max-allowed-packet=256M", "--skip-name-resolve",
                "--innodb-buffer-pool-size=64M"));
        command.addAll(extraOptions);
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dir.resolve("stdout.log").toFile()).start();
        MariaDbServer server = new MariaDbServer(dir, port, process);
        try {
            server.awaitSocket();
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
        return server;
    }

    private void awaitSocket() throws IOException, InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
        while (!Files.exists(dir.resolve("mariadb.sock"))) {
            if (!process.isAlive() || Instant.now().isAfter(deadline)) {
                throw new IOException("mariadbd did not start: " + Files.readString(dir.resolve("error.log")));
            }
            Thread.sleep(100); // a process's socket file: nothing to wait on but the file system
        }
    }

    public int port() {
        return port;
    }

    /** A directory of the server's own, removed with it: for files its options name (certificates). */
    public Path directory() {
        return dir;
    }

    /** Runs {@code sql} (statements separated by semicolons) as root over the server's own socket: its output. */
    public String asRoot(String sql) throws IOException, InterruptedException {
        Path script = Files.createTempFile(dir, "root", ".sql");
        Files.writeString(script, sql, StandardCharsets.UTF_8);
        Path out = dir.resolve("root.log");
        run(List.of(CLIENT.toString(), "--no-defaults", "--socket=" + dir.resolve("mariadb.sock"), "--user=root",
                "--batch", "--skip-column-names", "-e", "source " + script), out);
        return Files.readString(out);
    }

    /** Runs {@code command} to its end, its output in {@code log}; fails with that output unless it exits 0. */
    public static void run(List<String> command, Path log) throws IOException, InterruptedException {
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

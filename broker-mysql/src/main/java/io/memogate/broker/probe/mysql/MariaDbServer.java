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
 * A private MariaDB server, started from Debian's {@code /usr/sbin/mariadbd} with {@code --no-defaults} in a fresh
 * data directory, on its own port bound to 127.0.0.1: never the machine's own server on 3306, whose option
 * files are not read. Root logs in over the server's own Unix socket only; callers create the users they need
 * with {@link #asRoot}. {@code bin/memogate demo --server mariadb}, the MariaDB storm and the tests run it.
 * Run by root, the server runs as root ({@code --user=root}): its files are in a directory of its own, removed
 * by {@link #close}, and nothing else of the machine's is touched.
 */
public final class MariaDbServer implements AutoCloseable {

    public static final Path MARIADBD = Path.of("/usr/sbin/mariadbd");
    private static final Path INSTALL_DB = Path.of("/usr/bin/mariadb-install-db");
    public static final Path CLIENT = Path.of("/usr/bin/mariadb");

    private final Path dir;
    private final int port;
    private final List<String> command;
    private volatile Process process;

    private MariaDbServer(Path dir, int port, List<String> command, Process process) {
        this.dir = dir;
        this.port = port;
        this.command = List.copyOf(command);
        this.process = process;
    }

    /** Why the tests cannot start one here; empty when they can. */
    public static String missing() {
        for (Path binary : List.of(MARIADBD, INSTALL_DB, CLIENT)) {
            if (!Files.isExecutable(binary)) {
                return binary + " is not installed (Debian: apt-get install mariadb-server)";
            }
        }
        return "";
    }

    /** A server on a free port with the usual options and {@code extraOptions} after them ({@code --performance-schema=ON}). */
    public static MariaDbServer start(List<String> extraOptions) throws IOException, InterruptedException {
        return start(0, extraOptions);
    }

    /** The same on {@code port} of 127.0.0.1; 0: a free one. */
    public static MariaDbServer start(int port, List<String> extraOptions) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("memogate-mariadb");
        List<String> install = new ArrayList<>(List.of(INSTALL_DB.toString(), "--no-defaults",
                "--datadir=" + dir.resolve("data"), "--auth-root-authentication-method=normal", "--skip-test-db"));
        install.addAll(asUser());
        run(install, dir.resolve("install.log"));
        int serverPort = port == 0 ? freePort() : port;
        List<String> command = new ArrayList<>(List.of(MARIADBD.toString(), "--no-defaults",
                "--datadir=" + dir.resolve("data"), "--socket=" + dir.resolve("mariadb.sock"), "--port=" + serverPort,
                "--bind-address=127.0.0.1", "--pid-file=" + dir.resolve("mariadb.pid"),
                "--log-error=" + dir.resolve("error.log"), "--max-allowed-packet=256M", "--skip-name-resolve",
                "--innodb-buffer-pool-size=64M"));
        command.addAll(asUser());
        command.addAll(extraOptions);
        MariaDbServer server = new MariaDbServer(dir, serverPort, command, launch(command, dir));
        try {
            server.awaitSocket();
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
        return server;
    }

    private static Process launch(List<String> command, Path dir) throws IOException {
        return new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("stdout.log").toFile())).start();
    }

    /**
     * Starts the server again on its data directory after its process ended (killed, as the kernel's OOM killer
     * kills it): InnoDB recovers, and the server is back when its socket is.
     */
    public void restart() throws IOException, InterruptedException {
        if (process.isAlive()) {
            throw new IllegalStateException("mariadbd (pid " + process.pid() + ") is still running");
        }
        Files.deleteIfExists(socket()); // a killed server leaves its socket file behind
        process = launch(command, dir);
        awaitSocket();
    }

    /** Stops the server (a clean shutdown), keeping its files for {@link #restart}. */
    public void stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }

    /**
     * mariadbd refuses to run as root unless told to; any other user runs it as itself, and {@code --user} would
     * only draw a warning.
     */
    private static List<String> asUser() {
        return "root".equals(System.getProperty("user.name")) ? List.of("--user=root") : List.of();
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

    /** The server's process id, as the operating system numbers it. */
    public long pid() {
        return process.pid();
    }

    /** Whether the server process still runs. */
    public boolean isAlive() {
        return process.isAlive();
    }

    /** The server's Unix socket, for clients on this machine that log in as root. */
    public Path socket() {
        return dir.resolve("mariadb.sock");
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
        run(List.of(CLIENT.toString(), "--no-defaults", "--socket=" + socket(), "--user=root",
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
        stop();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
    }
}

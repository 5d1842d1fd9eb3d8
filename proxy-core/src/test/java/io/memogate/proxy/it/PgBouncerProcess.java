package io.memogate.proxy.it;

import io.memogate.proxy.postgres.embedded.ServerAccount;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Debian's PgBouncer in transaction mode, in a private directory, listening on a free port of 127.0.0.1, in front
 * of one database of one server: what a DBA puts in front of Memogate for applications with thousands of
 * connections. SCRAM towards the clients and the server from a plain-text userlist (PgBouncer logs in to the
 * server with SCRAM on a client's behalf only with the plain password). PgBouncer refuses to run as root, so
 * under a root JVM it runs as the account the embedded PostgreSQL uses.
 */
final class PgBouncerProcess implements AutoCloseable {

    static final Path EXECUTABLE = Path.of("/usr/sbin/pgbouncer");
    private static final Duration START_TIMEOUT = Duration.ofSeconds(15);

    private final Path directory;
    private final Process process;
    private final int port;

    private PgBouncerProcess(Path directory, Process process, int port) {
        this.directory = directory;
        this.process = process;
        this.port = port;
    }

    static boolean installed() {
        return Files.isExecutable(EXECUTABLE);
    }

    /** Starts PgBouncer pooling {@code poolSize} server connections to {@code database} on host:port. */
    static PgBouncerProcess start(String host, int serverPort, String database, String user, String password,
            int poolSize) throws IOException, InterruptedException {
        ServerAccount account = ServerAccount.forThisProcess("nobody");
        Path directory = Files.createTempDirectory(Path.of("/tmp"), "memogate-pgbouncer-");
        Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwx------"));
        int port = freePort();
        Path ini = directory.resolve("pgbouncer.ini");
        Path users = directory.resolve("userlist.txt");
        Files.writeString(ini, """
                [databases]
                %s = host=%s port=%d dbname=%s

                [pgbouncer]
                listen_addr = 127.0.0.1
                listen_port = %d
                unix_socket_dir =
                auth_type = scram-sha-256
                auth_file = %s
                pool_mode = transaction
                default_pool_size = %d
                max_client_conn = 200
                ignore_startup_parameters = extra_float_digits
                logfile = %s
                pidfile = %s
                """.formatted(database, host, serverPort, database, port, users, poolSize,
                directory.resolve("pgbouncer.log"), directory.resolve("pgbouncer.pid")));
        Files.writeString(users, "\"" + user + "\" \"" + password + "\"\n");
        Files.setPosixFilePermissions(users, PosixFilePermissions.fromString("rw-------"));
        for (Path path : List.of(directory, ini, users)) {
            account.own(path);
        }
        Process process = new ProcessBuilder(account.command(List.of(EXECUTABLE.toString(), ini.toString())))
                .redirectErrorStream(true).redirectOutput(directory.resolve("stdout.log").toFile()).start();
        PgBouncerProcess started = new PgBouncerProcess(directory, process, port);
        try {
            started.awaitListening();
        } catch (IOException | RuntimeException e) {
            started.close();
            throw e;
        }
        return started;
    }

    int port() {
        return port;
    }

    private void awaitListening() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("PgBouncer stopped at start: " + log());
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                Thread.sleep(50); // PgBouncer binds within milliseconds of its start
            }
        }
        throw new IOException("PgBouncer did not listen on " + port + " within " + START_TIMEOUT + ": " + log());
    }

    private String log() throws IOException {
        List<String> lines = new ArrayList<>();
        for (String name : List.of("stdout.log", "pgbouncer.log")) {
            Path file = directory.resolve(name);
            if (Files.exists(file)) {
                lines.add(Files.readString(file));
            }
        }
        return String.join("\n", lines);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Override
    public void close() throws IOException {
        process.destroy();
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path path : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}

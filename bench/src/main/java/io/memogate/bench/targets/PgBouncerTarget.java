package io.memogate.bench.targets;

import io.memogate.bench.process.ChildProcess;
import io.memogate.bench.process.FreePort;
import io.memogate.bench.process.RunAs;
import io.memogate.bench.process.TempDirectory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * PgBouncer in session mode (one server connection per client, as Memogate), or in transaction mode (a small pool
 * of server connections shared by every client, {@link TargetKind#PGBOUNCER_TRANSACTION}), from the package
 * installed on this machine, configured in a private temporary directory: TCP on 127.0.0.1 only, no
 * Unix socket, SCRAM towards clients and the server from a plain-text userlist (PgBouncer needs the
 * plain password to log in to the server with SCRAM on the client's behalf). Connection logging is off
 * so that it writes nothing per connection; the others log nothing either.
 */
public final class PgBouncerTarget extends ProcessTarget {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(15);
    /** The clients the pool takes at once unless told more: pgbench's 16 and room to spare. */
    static final int DEFAULT_CLIENTS = 20;
    /**
     * The server connections a transaction-mode pool keeps: the docs' default_pool_size, what the server (or
     * Memogate behind it) sees however many clients connect.
     */
    static final int TRANSACTION_POOL = 20;

    private final String version;
    private final PoolMode mode;
    private final int poolSize;

    /** How PgBouncer hands out its server connections. */
    enum PoolMode {
        /** One per client for as long as it is connected. */
        SESSION,
        /** One per transaction: clients share a pool of {@link PgBouncerTarget#TRANSACTION_POOL}. */
        TRANSACTION;

        static PoolMode of(TargetKind kind) {
            return kind.poolsTransactions() ? TRANSACTION : SESSION;
        }

        String word() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private PgBouncerTarget(TargetKind kind, String version, PoolMode mode, int poolSize, int port,
                            ChildProcess process, TempDirectory directory) {
        super(kind, port, process, directory);
        this.version = version;
        this.mode = mode;
        this.poolSize = poolSize;
    }

    /**
     * @param backend the server, over TCP or (for {@link TargetKind#PGBOUNCER_UNIX}) its socket directory
     * @param kind which pool mode: transaction for the kinds that {@link TargetKind#poolsTransactions}, else session
     * @param clients the most clients connected at once: in session mode each holds a server connection, so the
     *     pool is that large (and at least {@link #DEFAULT_CLIENTS}), else clients beyond it would wait; in
     *     transaction mode the pool is {@link #TRANSACTION_POOL} whatever the clients
     */
    public static PgBouncerTarget start(TargetKind kind, Path executable, Backend backend, RunAs account, int clients)
            throws IOException, InterruptedException {
        PoolMode mode = PoolMode.of(kind);
        int poolSize = mode == PoolMode.TRANSACTION ? TRANSACTION_POOL : Math.max(DEFAULT_CLIENTS, clients);
        String version = ToolVersion.of(executable, "--version");
        TempDirectory directory = TempDirectory.create("memogate-bench-pgbouncer-");
        try {
            int port = FreePort.find();
            Path ini = directory.resolve("pgbouncer.ini");
            Path users = directory.resolve("userlist.txt");
            Files.writeString(ini, ini(backend, port, directory.path(), users, mode, poolSize, clients));
            Files.writeString(users, quote(backend.user()) + " " + quote(backend.password()) + "\n");
            Files.setPosixFilePermissions(users, PosixFilePermissions.fromString("rw-------"));
            Path log = directory.resolve("stdout.log");
            Files.createFile(log);
            for (Path path : List.of(directory.path(), ini, users, log)) {
                account.own(path);
            }
            ChildProcess process = ChildProcess.start("pgbouncer",
                    account.wrap(List.of(executable.toString(), ini.toString())), directory.path(), log);
            process.awaitPortOrStop(port, START_TIMEOUT);
            return new PgBouncerTarget(kind, version, mode, poolSize, port, process, directory);
        } catch (IOException | InterruptedException | RuntimeException e) {
            directory.close();
            throw e;
        }
    }

    /** @param clients the most clients at once: max_client_conn takes them with room to spare */
    static String ini(Backend backend, int port, Path directory, Path users, PoolMode mode, int poolSize, int clients) {
        return """
                [databases]
                %s = host=%s port=%d dbname=%s

                [pgbouncer]
                listen_addr = 127.0.0.1
                listen_port = %d
                unix_socket_dir =
                auth_type = scram-sha-256
                auth_file = %s
                pool_mode = %s
                max_client_conn = %d
                default_pool_size = %d
                logfile = %s
                pidfile = %s
                log_connections = 0
                log_disconnections = 0
                """.formatted(backend.database(), backend.host(), backend.port(), backend.database(), port, users,
                mode.word(), Math.max(100, Math.max(poolSize, clients) + 10), poolSize, directory.resolve("pgbouncer.log"),
                directory.resolve("pgbouncer.pid"));
    }

    /** userlist.txt quoting: a double quote inside the value is doubled. */
    private static String quote(String value) {
        return "\"" + value.replace("\"", "\"\"") + "\"";
    }

    @Override
    public String description() {
        return version + " (pid " + pid() + "), pool_mode=" + mode.word() + ", default_pool_size=" + poolSize
                + ", auth scram-sha-256"
                + (kind() == TargetKind.PGBOUNCER_UNIX ? ", to the server's Unix socket" : "") + ", on 127.0.0.1:"
                + port();
    }
}

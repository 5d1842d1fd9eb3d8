package io.memogate.testkit;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Future;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.JdbcDatabaseContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.images.builder.Transferable;
import org.testcontainers.utility.DockerImageName;

/**
 * Memogate's image in front of a database container on the same network, for tests on machines with a Docker
 * engine: the same proxy production runs, configured from Java ({@link MemogateSettings}), its broker watching the
 * database with the database container's own role. Clients connect with {@link #getJdbcUrl()} and the database
 * container's user and password.
 * <pre>{@code
 * Network network = Network.newNetwork();
 * PostgreSQLContainer postgres = new PostgreSQLContainer("postgres:18").withNetwork(network);
 * MemogateContainer memogate = new MemogateContainer(postgres)
 *         .withSettings(MemogateSettings.defaults().withTarget(64L << 20));
 * memogate.start(); // starts postgres first
 * DriverManager.getConnection(memogate.getJdbcUrl(), postgres.getUsername(), postgres.getPassword());
 * ...
 * assertThat(memogate.statements()).noneAbove(Tier.MEDIUM);
 * }</pre>
 * The proxy in the container keeps the last {@link MemogateSettings#statementRecords()} statements
 * ({@code admission.statementRecords}); {@link #statements()} reads them from its admin console's
 * {@code SHOW STATEMENTS}, so the assertions are those of the in-process extension.
 * PostgreSQL only, for now: the proxy speaks its protocol alone.
 */
public class MemogateContainer extends GenericContainer<MemogateContainer> {

    /** The image {@code docker build -t memogate .} (or {@code docker compose build}) makes from the repository. */
    public static final DockerImageName DEFAULT_IMAGE = DockerImageName.parse("memogate:latest");
    /** Clients and the admin console. */
    public static final int PORT = 6432;
    /** {@code /metrics} and {@code /health}. */
    public static final int ADMIN_HTTP_PORT = 9930;
    private static final String POSTGRESQL_DRIVER = "org.postgresql.Driver";

    private final JdbcDatabaseContainer<?> database;
    private final ConsoleStatements statements = new ConsoleStatements();
    private MemogateSettings settings = MemogateSettings.defaults();

    public MemogateContainer(JdbcDatabaseContainer<?> database) {
        this(DEFAULT_IMAGE, database);
    }

    public MemogateContainer(DockerImageName image, JdbcDatabaseContainer<?> database) {
        super(image);
        this.database = fronted(database);
        setUp();
    }

    /** An image built by the test, e.g. Testcontainers' {@code ImageFromDockerfile} of the repository. */
    public MemogateContainer(Future<String> image, JdbcDatabaseContainer<?> database) {
        super(image);
        this.database = fronted(database);
        setUp();
    }

    private static JdbcDatabaseContainer<?> fronted(JdbcDatabaseContainer<?> database) {
        Objects.requireNonNull(database, "database");
        if (!POSTGRESQL_DRIVER.equals(database.getDriverClassName())) {
            throw new IllegalArgumentException("Memogate fronts PostgreSQL servers only; "
                    + database.getClass().getSimpleName() + " is " + database.getDriverClassName() + "'s");
        }
        return database;
    }

    private void setUp() {
        withExposedPorts(PORT, ADMIN_HTTP_PORT);
        dependsOn(database);
        // UP once the proxy listens (RunningProxy marks it serving last).
        waitingFor(Wait.forHttp("/health").forPort(ADMIN_HTTP_PORT).forStatusCode(200));
    }

    public MemogateContainer withSettings(MemogateSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
        return self();
    }

    public MemogateSettings getSettings() {
        return settings;
    }

    @Override
    protected void configure() {
        if (database.getNetwork() == null) {
            throw new IllegalStateException("put the database container on a network (withNetwork(Network.newNetwork()))"
                    + ": Memogate reaches it there");
        }
        withNetwork(database.getNetwork());
        List<String> aliases = database.getNetworkAliases();
        String host = aliases.isEmpty() ? database.getContainerName() : aliases.getFirst();
        int port = database.getExposedPorts().getFirst();
        withCopyToContainer(Transferable.of(ContainerConfig.yaml(settings, host, port, database.getUsername(),
                database.getPassword())), ContainerConfig.PATH);
    }

    /** The database container's database, through Memogate. */
    public String getJdbcUrl() {
        return getJdbcUrl(database.getDatabaseName());
    }

    public String getJdbcUrl(String databaseName) {
        return "jdbc:postgresql://" + getHost() + ":" + getMappedPort(PORT) + "/" + databaseName;
    }

    /**
     * The admin console (SHOW TIERS, SHOW QUEUE, SHOW STATEMENTS, ...), for the database container's role and the
     * roles {@link MemogateSettings#consoleUsers()} names.
     */
    public String getConsoleJdbcUrl() {
        return getJdbcUrl("memogate");
    }

    public String getMetricsUrl() {
        return "http://" + getHost() + ":" + getMappedPort(ADMIN_HTTP_PORT) + "/metrics";
    }

    public String getHealthUrl() {
        return "http://" + getHost() + ":" + getMappedPort(ADMIN_HTTP_PORT) + "/health";
    }

    /**
     * The statements the proxy's admission saw since it started or since {@link #clearStatements()}, oldest first,
     * read from its admin console as the database container's role.
     *
     * @throws IllegalStateException when the console cannot be read (the container stopped, the role refused)
     */
    public Statements statements() {
        try (Connection console = console()) {
            return statements.read(console);
        } catch (SQLException e) {
            throw unreadable(e);
        }
    }

    /**
     * Later {@link #statements()} leave out those seen so far: what a test asserts on after this is its own. The
     * proxy itself forgets nothing (others may read its console too).
     */
    public void clearStatements() {
        try (Connection console = console()) {
            statements.clear(console);
        } catch (SQLException e) {
            throw unreadable(e);
        }
    }

    private Connection console() throws SQLException {
        return DriverManager.getConnection(getConsoleJdbcUrl() + "?preferQueryMode=simple", getUsername(),
                getPassword());
    }

    private IllegalStateException unreadable(SQLException e) {
        return new IllegalStateException("cannot read SHOW STATEMENTS from Memogate's console at "
                + getConsoleJdbcUrl() + " as " + getUsername() + ": " + e.getMessage(), e);
    }

    public String getUsername() {
        return database.getUsername();
    }

    public String getPassword() {
        return database.getPassword();
    }

    public JdbcDatabaseContainer<?> getDatabase() {
        return database;
    }
}

package io.memogate.testkit;

import static io.memogate.testkit.MemogateAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.broker.gateway.Tier;
import io.memogate.proxy.admission.StatementRecord;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.PasswordKind;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The in-process extension in front of an embedded PostgreSQL, as an application's test uses it: connections
 * through {@code jdbcUrl()}, the statements each test sent with the tier each took, a refusal with its reason, the
 * admin console and the metrics. The console's SHOW STATEMENTS, read as {@link MemogateContainer} reads it, gives
 * the very records the extension holds.
 */
class MemogateExtensionIT {

    private static final String USER = "app";
    private static final String PASSWORD = "app-secret";
    private static final EmbeddedPostgres POSTGRES = EmbeddedPostgres.start();

    /**
     * One statement at a time in SMALL and none waiting, so that a second one is refused at once; a 64 MiB
     * target, under which an 8-table star needs SMALL only.
     */
    @RegisterExtension
    static final MemogateExtension MEMOGATE = MemogateExtension.inFrontOf(MemogateExtensionIT::prepareDatabase)
            .with(settings -> settings.withTarget(64L << 20).withTierLimits(1, 1, 1)
                    .withQueue(Tier.SMALL, 0, Duration.ofSeconds(30)).withConsoleUsers(USER));

    private static String prepareDatabase() {
        try {
            POSTGRES.createUser(USER, PASSWORD, PasswordKind.SCRAM);
            StarTables.create(POSTGRES, "shop", USER);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return POSTGRES.jdbcUrl("shop");
    }

    @AfterAll
    static void stopPostgres() {
        POSTGRES.close();
    }

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection(MEMOGATE.jdbcUrl(), USER, PASSWORD);
    }

    private static Connection console() throws SQLException {
        return DriverManager.getConnection(MEMOGATE.consoleJdbcUrl() + "?preferQueryMode=simple", USER, PASSWORD);
    }

    /** Sends each text as one simple Query, several statements and all. */
    private static Connection connectSimple() throws SQLException {
        return DriverManager.getConnection(MEMOGATE.jdbcUrl() + "?preferQueryMode=simple", USER, PASSWORD);
    }

    @Test
    void eachStatementATestSendsIsRecordedWithItsTier() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("select label from t1 where a = 42");
            statement.execute(StarTables.star(8));
        }

        Statements seen = MEMOGATE.statements();
        assertThat(seen.matching("from t1 where a = ?")).allBypassed();
        assertThat(seen.largest()).tookTier(Tier.SMALL).admitted().hasFingerprintContaining("join t7");
        assertThat(seen.largest().estimate().relations()).isEqualTo(8);
        assertThat(seen).noneAbove(Tier.SMALL).noneRefused().noneWaited();
    }

    @Test
    void theConsoleGivesTheContainerTheSameRecordsAndItsClearKeepsOnlyLaterOnes() throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("select label from t1 where a = 42");
            statement.execute(StarTables.star(8));
        }
        ConsoleStatements fromConsole = new ConsoleStatements();
        try (Connection console = console()) {
            Statements read = fromConsole.read(console);

            assertThat(read.list()).isEqualTo(MEMOGATE.statements().list()).isNotEmpty();
            assertThat(read.dropped()).isZero();
            assertThat(read.largest()).tookTier(Tier.SMALL).hasFingerprintContaining("join t7 on t0.k7 = t7.a");

            fromConsole.clear(console);
            assertThat(fromConsole.read(console).isEmpty()).isTrue();
            try (Connection connection = connect(); Statement statement = connection.createStatement()) {
                statement.execute("select label from t2 where a = 7");
            }
            assertThat(fromConsole.read(console).matching("from t2")).allBypassed().hasSize(1);
            assertThat(fromConsole.read(console).matching("from t1").isEmpty()).isTrue();
        }
    }

    @Test
    void aTestStartsWithNoStatementsOfTheTestsBefore() {
        assertThat(MEMOGATE.statements().isEmpty()).isTrue();
    }

    @Test
    void aRefusedStatementIsRecordedWithTheReasonAndTheAssertionNamesIt() throws Exception {
        try (Connection lockHolder = POSTGRES.connect("shop"); Statement lock = lockHolder.createStatement();
                Connection first = connectSimple(); Statement holding = first.createStatement();
                Connection second = connect(); Statement refused = second.createStatement()) {
            lock.execute("select pg_advisory_lock(31)");
            // A multi-statement query keeps its SMALL permit until ReadyForQuery: here, until the lock is free.
            CompletableFuture<Void> holder = CompletableFuture.runAsync(() -> execute(holding,
                    StarTables.star(8) + "; select pg_advisory_lock(31)"));
            Poll.until("the first star holds SMALL", () -> MEMOGATE.proxy().proxy().admission().orElseThrow().all()
                    .getFirst().gateways().state(Tier.SMALL).active() == 1);

            assertThatThrownBy(() -> refused.execute(StarTables.star(9))).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("53000"));
            lock.execute("select pg_advisory_unlock(31)");
            holder.get(30, TimeUnit.SECONDS);
        }

        StatementRecord record = MEMOGATE.statements().refused().last();
        try (Connection console = console()) {
            assertThat(new ConsoleStatements().read(console).refused().last()).isEqualTo(record);
        }
        assertThat(record).refused().tookTier(Tier.SMALL).hasFingerprintContaining("join t8");
        assertThat(record.refusal().orElseThrow().message()).contains("SMALL gateway: queue full");
        assertThatThrownBy(() -> assertThat(MEMOGATE.statements()).noneRefused()).isInstanceOf(AssertionError.class)
                .hasMessageContaining("Expected no statement refused, but found 1")
                .hasMessageContaining("REFUSED SMALL").hasMessageContaining("9 relations")
                .hasMessageContaining("join t8 on t0.k8 = t8.a");
    }

    @Test
    void theConsoleAndTheMetricsAreReachable() throws Exception {
        try (Connection console = DriverManager.getConnection(MEMOGATE.consoleJdbcUrl() + "?preferQueryMode=simple",
                USER, PASSWORD); Statement show = console.createStatement(); ResultSet tiers = show.executeQuery("SHOW TIERS")) {
            assertThat(tiers.next()).isTrue();
            assertThat(tiers.getString("server")).isEqualTo("target");
        }
        try (HttpClient http = HttpClient.newHttpClient()) {
            String metrics = http.send(HttpRequest.newBuilder(MEMOGATE.metricsUrl()).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            assertThat(metrics).contains("memogate_");
        }
    }

    private static void execute(Statement statement, String sql) {
        try {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}

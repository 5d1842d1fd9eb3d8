package io.memogate.proxy.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.broker.gateway.Tier;
import io.memogate.broker.gateway.TierSettings;
import io.memogate.proxy.admission.AdmissionControl;
import io.memogate.proxy.postgres.PostgresServer;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgresExtension;
import io.memogate.proxy.testing.Await;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * PgBouncer in transaction mode in front of Memogate, for applications with more connections than the server
 * takes: the application talks to PgBouncer, PgBouncer's few server connections are Memogate sessions. Admission,
 * a cancel of a queued statement and a refusal must reach the application through PgBouncer as they reach a
 * client of Memogate's own: a star join takes LARGE while a point query passes untouched, a cancel sent to
 * PgBouncer withdraws the queued statement (57014), a wait past the gateway's timeout fails the transaction
 * with 53000, and the application's connection goes on after each.
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class PgBouncerInFrontIT {

    private static final String DATABASE = StarSchema.DATABASE;
    /** Transaction pooling keeps a server connection only for a transaction: settings go with it, as SET LOCAL. */
    private static final String WIDE_IN_TRANSACTION = "set local join_collapse_limit = 20; "
            + "set local from_collapse_limit = 20; set local geqo_threshold = 20";

    /** Not the common pool: on two cores it has one thread, which a blocking client would take. */
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private AdmissionControl control;

    @BeforeEach
    void schema(EmbeddedPostgres pg) throws SQLException {
        assumeTrue(PgBouncerProcess.installed(), PgBouncerProcess.EXECUTABLE + " is not installed (Debian's pgbouncer;"
                + " bin/memogate test installs it): the PgBouncer-in-front suite is skipped");
        StarSchema.ensure(pg);
    }

    @AfterEach
    void stop() {
        threads.shutdownNow();
        if (control != null) {
            control.close();
        }
    }

    /**
     * One slot per tier, each waited for at most {@code timeout}, under a target of 200 MB: a 12-table star
     * (about 26 MB) takes SMALL, a 14-table one (about 125 MB) is above MEDIUM's threshold and takes LARGE.
     */
    private ProxyFixture proxy(EmbeddedPostgres pg, Duration timeout) throws InterruptedException {
        TierSettings one = new TierSettings(1, 0.25, 10, timeout);
        GatewaySettings settings = GatewaySettings.defaults(1).with(Tier.SMALL, one)
                .with(Tier.MEDIUM, one.withFraction(0.5)).with(Tier.LARGE, one.withFraction(1.0));
        control = AdmissionControl.builder(AdmissionControl.ONLY_SERVER, PostgresServer.KIND, settings)
                .staticTargetBytes(200L << 20).build();
        return ProxyFixture.to(pg.host(), pg.port()).admission(control.hook()).admissionSupport(control.support())
                .start();
    }

    private static PgBouncerProcess pgBouncer(ProxyFixture proxy) throws Exception {
        return PgBouncerProcess.start("127.0.0.1", proxy.port(), DATABASE, "memogate", "memogate", 4);
    }

    /** The application's connection: pgjdbc without named server-side statements, as transaction pooling needs. */
    private static Connection application(PgBouncerProcess bouncer) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", "memogate");
        properties.setProperty("password", "memogate");
        properties.setProperty("prepareThreshold", "0");
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + bouncer.port() + "/" + DATABASE, properties);
    }

    /** Counts a star join of {@code tables} tables in a transaction that plans it exhaustively. */
    private static long wideStar(Connection connection, int tables, String tag) throws SQLException {
        connection.setAutoCommit(false);
        try (Statement statement = connection.createStatement()) {
            statement.execute(WIDE_IN_TRANSACTION);
            try (ResultSet rows = statement.executeQuery(StarSchema.star(tables, tag))) {
                rows.next();
                long count = rows.getLong(1);
                connection.commit();
                return count;
            }
        } catch (SQLException e) {
            connection.rollback();
            throw e;
        } finally {
            connection.setAutoCommit(true);
        }
    }

    private static int selectOne(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery("select 1")) {
            rows.next();
            return rows.getInt(1);
        }
    }

    /** Holds every tier for {@code seconds} from a client of Memogate's own; returns once SMALL is held. */
    private CompletableFuture<Void> holdTheGateways(ProxyFixture proxy, int seconds) throws Exception {
        Connection holder = proxy.connect(DATABASE, "memogate", "memogate", "preferQueryMode", "simple");
        CompletableFuture<Void> holding = CompletableFuture.runAsync(() -> {
            try (holder; Statement statement = holder.createStatement()) {
                statement.execute(StarSchema.WIDE);
                // One query string: the star's permits are kept until ReadyForQuery, after the sleep.
                statement.execute(StarSchema.star(12, "holder") + "; select pg_sleep(" + seconds + ")");
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }, threads);
        Await.until("the holder admitted to SMALL", () -> control.gateways().state(Tier.SMALL).active() == 1);
        return holding;
    }

    @Test
    void aStarJoinTakesLargeAndAPointQueryPassesUntouched(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = proxy(pg, Duration.ofMinutes(1));
                PgBouncerProcess bouncer = pgBouncer(proxy);
                Connection connection = application(bouncer)) {
            assertThat(selectOne(connection)).isEqualTo(1);
            assertThat(control.gateways().state(Tier.SMALL).admittedTotal()).as("a point query takes no gateway")
                    .isZero();
            assertThat(wideStar(connection, 14, "through PgBouncer")).isZero();

            assertThat(control.gateways().state(Tier.LARGE).admittedTotal()).as("the 14-table star took LARGE")
                    .isEqualTo(1);
            assertThat(control.gateways().ledger().inFlightBytes()).as("released with the transaction's answer")
                    .isZero();
        }
    }

    @Test
    void aCancelSentToPgBouncerWithdrawsTheQueuedStatementAndTheConnectionGoesOn(EmbeddedPostgres pg)
            throws Exception {
        try (ProxyFixture proxy = proxy(pg, Duration.ofMinutes(5));
                PgBouncerProcess bouncer = pgBouncer(proxy);
                Connection connection = application(bouncer);
                Statement queued = connection.createStatement()) {
            CompletableFuture<Void> holding = holdTheGateways(proxy, 4);
            CompletableFuture<Void> canceller = CompletableFuture.runAsync(() -> {
                try {
                    Await.until("the application's star queued", () -> !control.gateways().waiting().isEmpty());
                    queued.cancel(); // pgjdbc sends its CancelRequest to PgBouncer, which sends its own to Memogate
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, threads);
            connection.setAutoCommit(false);
            queued.execute(WIDE_IN_TRANSACTION);
            assertThatThrownBy(() -> queued.executeQuery(StarSchema.star(12, "queued behind PgBouncer")))
                    .isInstanceOfSatisfying(SQLException.class, e -> {
                        assertThat(e.getSQLState()).isEqualTo("57014");
                        assertThat(e.getMessage()).as("withdrawn from the queue, never sent to the server")
                                .contains("admission queue");
                    });
            connection.rollback();
            connection.setAutoCommit(true);
            canceller.get(30, TimeUnit.SECONDS);
            assertThat(holding).as("answered while the holder still held the gateways").isNotDone();
            assertThat(control.gateways().waiting()).as("the queue is empty again").isEmpty();
            holding.get(60, TimeUnit.SECONDS);
            assertThat(selectOne(connection)).as("the application's connection goes on").isEqualTo(1);
            assertThat(control.gateways().state(Tier.SMALL).admittedTotal()).as("only the holder was admitted")
                    .isEqualTo(1);
        }
    }

    @Test
    void aStatementThatWaitsTooLongIsRefusedWith53000ThroughPgBouncer(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = proxy(pg, Duration.ofMillis(300));
                PgBouncerProcess bouncer = pgBouncer(proxy);
                Connection connection = application(bouncer)) {
            CompletableFuture<Void> holding = holdTheGateways(proxy, 3);
            assertThatThrownBy(() -> wideStar(connection, 12, "waits too long"))
                    .isInstanceOfSatisfying(SQLException.class, e -> {
                        assertThat(e.getSQLState()).isEqualTo("53000");
                        assertThat(e.getMessage()).contains("gateway").contains("waited").contains("estimate");
                    });
            assertThat(holding).as("refused while the holder still held the gateways").isNotDone();
            assertThat(selectOne(connection)).as("the application's connection goes on").isEqualTo(1);
            holding.get(60, TimeUnit.SECONDS);
            assertThat(wideStar(connection, 12, "after the holder")).as("the same star runs once the gateways are free")
                    .isZero();
        }
    }
}

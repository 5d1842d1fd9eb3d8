package io.memogate.proxy.it;

import static io.memogate.proxy.it.RawPgClient.body;
import static io.memogate.proxy.it.RawPgClient.cstring;
import static io.memogate.proxy.it.RawPgClient.int16;
import static io.memogate.proxy.it.RawPgClient.int32;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.broker.gateway.Tier;
import io.memogate.broker.gateway.TierSettings;
import io.memogate.proxy.admission.AdmissionControl;
import io.memogate.proxy.postgres.PostgresServer;
import io.memogate.proxy.postgres.catalog.IndexCatalogs;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgresExtension;
import io.memogate.proxy.testing.Await;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * admission.holdWhileRunning against PostgreSQL 18: a procedure that plans a 14-table star and then runs
 * on (an ETL step) keeps its permits past its first answers, but only for the hold. With a short hold a
 * report's star is admitted while the procedure still runs; with a long one the report waits for the
 * procedure's permits and is refused 53000 at its tier's timeout.
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class HoldWhileRunningIT {

    private static final String DATABASE = StarSchema.DATABASE;
    private static final String PROCEDURE = "create or replace procedure etl_star14() language plpgsql as $$ "
            + "begin perform (" + StarSchema.star(14, "in the ETL procedure") + "); perform pg_sleep(5); end $$";
    private static final Duration TIER_TIMEOUT = Duration.ofSeconds(3);

    /** Not the common pool: on two cores it has one thread, which a blocking client would take. */
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private AdmissionControl control;

    @BeforeEach
    void schema(EmbeddedPostgres pg) throws SQLException {
        StarSchema.ensure(pg);
        pg.execute(DATABASE, PROCEDURE,
                "create table if not exists hold_sink (n bigint)", "grant all on hold_sink to public",
                "create or replace procedure star14_then_lock() language plpgsql as $$ begin perform ("
                        + StarSchema.star(14, "then a lock") + "); perform pg_advisory_lock(4242);"
                        + " perform pg_advisory_unlock(4242); end $$",
                "create or replace procedure star14_only() language plpgsql as $$ begin perform ("
                        + StarSchema.star(14, "only") + "); end $$",
                "create or replace procedure star14_arg(document text) language plpgsql as $$ begin perform ("
                        + StarSchema.star(14, "with an argument") + "); end $$",
                "grant select on all tables in schema public to public"); // for the raw client's trusted user
    }

    @AfterEach
    void stop() {
        threads.shutdownNow();
        if (control != null) {
            control.close();
        }
    }

    /**
     * One slot in every tier, and fractions low enough that a 14-table star (about 125 MB) needs LARGE;
     * the catalog is read so that the call is estimated as the procedure's star.
     */
    private ProxyFixture proxy(EmbeddedPostgres pg, Duration holdWhileRunning) throws InterruptedException {
        return proxy(pg, holdWhileRunning, TIER_TIMEOUT);
    }

    private ProxyFixture proxy(EmbeddedPostgres pg, Duration holdWhileRunning, Duration tierTimeout)
            throws InterruptedException {
        TierSettings one = new TierSettings(1, 0.05, 10, tierTimeout);
        GatewaySettings settings = GatewaySettings.defaults(1).with(Tier.SMALL, one).with(Tier.MEDIUM, one)
                .with(Tier.LARGE, one.withFraction(1.0));
        IndexCatalogs catalogs = new IndexCatalogs(database -> Optional.of(pg.jdbcUrl(database)), pg.superuser(),
                pg.superuserPassword());
        control = AdmissionControl.builder(AdmissionControl.ONLY_SERVER, PostgresServer.KIND, settings).catalogs(catalogs)
                .staticTargetBytes(2L << 30).holdWhileRunning(() -> holdWhileRunning).build();
        return ProxyFixture.to(pg.host(), pg.port()).admission(control.hook()).admissionSupport(control.support())
                .start();
    }

    /** Two sessions planning wide: the ETL one and the report one. */
    private record Sessions(Connection etl, Connection report) implements AutoCloseable {

        static Sessions open(ProxyFixture proxy) throws SQLException {
            Connection etl = proxy.connect(DATABASE, "memogate", "memogate");
            Connection report = proxy.connect(DATABASE, "memogate", "memogate");
            for (Connection connection : new Connection[] {etl, report}) {
                try (Statement statement = connection.createStatement()) {
                    statement.execute(StarSchema.WIDE); // waits for the database's first catalog read
                }
            }
            return new Sessions(etl, report);
        }

        @Override
        public void close() throws SQLException {
            try (etl; report) {
                // closes both
            }
        }
    }

    /**
     * Calls the procedure on the ETL session and returns the running call once its star is planned and it
     * sleeps: the point where its permits outlast its planning.
     */
    private CompletableFuture<Void> callTheProcedure(EmbeddedPostgres pg, Connection etl) throws Exception {
        int backend;
        try (Statement statement = etl.createStatement();
                ResultSet rows = statement.executeQuery("select pg_backend_pid()")) {
            rows.next();
            backend = rows.getInt(1);
        }
        CompletableFuture<Void> call = CompletableFuture.runAsync(() -> {
            try (Statement statement = etl.createStatement()) {
                statement.execute("call etl_star14()");
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }, threads);
        ServerActivity.awaitWaitEvent(pg, backend, "Timeout:PgSleep");
        assertThat(control.gateways().state(Tier.LARGE).admittedTotal()).as("the call plans the star").isEqualTo(1);
        return call;
    }

    private CompletableFuture<Long> report(Connection report) {
        return CompletableFuture.supplyAsync(() -> {
            try (Statement statement = report.createStatement();
                    ResultSet rows = statement.executeQuery(StarSchema.star(14, "report"))) {
                rows.next();
                return rows.getLong(1);
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }, threads);
    }

    @Test
    void withAShortHoldAReportIsAdmittedWhileTheProcedureStillRuns(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = proxy(pg, Duration.ofSeconds(1)); Sessions sessions = Sessions.open(proxy)) {
            CompletableFuture<Void> call = callTheProcedure(pg, sessions.etl());

            CompletableFuture<Long> report = report(sessions.report());
            Await.until("the report admitted to LARGE",
                    () -> control.gateways().state(Tier.LARGE).admittedTotal() == 2);

            assertThat(call).as("admitted while the procedure still runs, its hold over").isNotDone();
            assertThat(report.get(30, TimeUnit.SECONDS)).isZero();
            call.get(30, TimeUnit.SECONDS);
            assertThat(control.gateways().ledger().inFlightBytes()).isZero();
        }
    }

    @Test
    void withALongHoldTheReportWaitsForTheProcedureAndIsRefused(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = proxy(pg, Duration.ofSeconds(30)); Sessions sessions = Sessions.open(proxy)) {
            CompletableFuture<Void> call = callTheProcedure(pg, sessions.etl());

            try (Statement report = sessions.report().createStatement()) {
                assertThatThrownBy(() -> report.executeQuery(StarSchema.star(14, "report")))
                        .isInstanceOf(SQLException.class)
                        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("53000"))
                        .hasMessageContaining("gateway");
            }
            assertThat(control.gateways().state(Tier.LARGE).admittedTotal()).as("only the procedure").isEqualTo(1);
            call.get(30, TimeUnit.SECONDS);
            assertThat(control.gateways().ledger().inFlightBytes()).as("released when the call ended").isZero();
        }
    }

    /**
     * The hold counts from when the server starts on the call: in a batch behind a 3-second statement, a call
     * admitted at once still holds LARGE a moment after it planned its star (it then waits on a lock the test
     * holds), though its 2-second hold would have run out had it counted from its admission.
     */
    @Test
    void aBatchedCallsHoldStartsWhenTheServerReachesIt(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = proxy(pg, Duration.ofSeconds(2), Duration.ofSeconds(30));
                Connection etl = proxy.connect(DATABASE, "memogate", "memogate");
                Connection locker = pg.connect(DATABASE)) {
            int backend;
            try (Statement statement = etl.createStatement()) {
                statement.execute(StarSchema.WIDE);
                try (ResultSet rows = statement.executeQuery("select pg_backend_pid()")) {
                    rows.next();
                    backend = rows.getInt(1);
                }
            }
            try (Statement statement = locker.createStatement()) {
                statement.execute("select pg_advisory_lock(4242)");
            }
            CompletableFuture<Void> batch = CompletableFuture.runAsync(() -> {
                try (Statement statement = etl.createStatement()) {
                    statement.addBatch("insert into hold_sink select 0 from pg_sleep(3)");
                    statement.addBatch("call star14_then_lock()");
                    statement.executeBatch();
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            }, threads);
            ServerActivity.awaitWaitEvent(pg, backend, "Lock:advisory");
            int active = control.gateways().state(Tier.LARGE).active();
            try (Statement statement = locker.createStatement()) {
                statement.execute("select pg_advisory_unlock(4242)");
            }
            batch.get(30, TimeUnit.SECONDS);
            assertThat(control.gateways().state(Tier.LARGE).admittedTotal()).isEqualTo(1);
            assertThat(active).as("the call planned its star under a second ago: still held").isEqualTo(1);
        }
    }

    /**
     * Bind P1, Bind P2, Execute P1, Execute P2, Sync, both calls of the star: P2 waits for LARGE, which P1
     * holds, and P1's Execute is behind P2. PostgreSQL runs both; so must the proxy (P1 gives its permits
     * back, since it cannot run before P2 is admitted), not refuse P2 at its tier's timeout.
     */
    @Test
    void twoBindsBeforeTheirExecutesAreNotRefusedByTheFirst(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = proxy(pg, Duration.ofSeconds(30), Duration.ofSeconds(5));
                RawPgClient client = wideSession(proxy, "call star14_only()")) {
            client.send('B', body(cstring("p1"), cstring("s1"), int16(0), int16(0), int16(0)));
            client.send('B', body(cstring("p2"), cstring("s1"), int16(0), int16(0), int16(0)));
            client.send('E', body(cstring("p1"), int32(0)));
            client.send('E', body(cstring("p2"), int32(0)));
            client.send('S', new byte[0]);
            List<RawPgClient.Message> answers = client.readUntilReady();
            assertThat(answers).as(() -> answers.stream()
                            .map(m -> m.type() == 'E' ? "E " + m.fields() : String.valueOf(m.type())).toList().toString())
                    .extracting(RawPgClient.Message::type).containsExactly('1', '2', '2', 'C', 'C', 'Z');
            assertThat(control.gateways().state(Tier.LARGE).admittedTotal()).isEqualTo(2);
        }
    }

    /**
     * A call passed a 100 kB argument: its Bind reaches the proxy in parts, and the Flush sent behind a kept
     * Bind must follow the last of them, not fall among its parameter bytes.
     */
    @Test
    void aLongBindOfACallIsFollowedByItsFlushNotSplitByIt(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = proxy(pg, Duration.ofSeconds(30), Duration.ofSeconds(5));
                RawPgClient client = wideSession(proxy, "call star14_arg($1)")) {
            byte[] value = "x".repeat(100_000).getBytes(StandardCharsets.US_ASCII);
            ByteArrayOutputStream bind = new ByteArrayOutputStream();
            bind.writeBytes(body(cstring(""), cstring("s1"), int16(0), int16(1), int32(value.length)));
            bind.writeBytes(value);
            bind.writeBytes(int16(0));
            client.send('B', bind.toByteArray());
            client.send('E', body(cstring(""), int32(0)));
            client.send('S', new byte[0]);
            List<RawPgClient.Message> answers = client.readUntilReady();
            assertThat(answers).extracting(RawPgClient.Message::type).containsExactly('1', '2', 'C', 'Z');
            assertThat(control.gateways().state(Tier.LARGE).admittedTotal()).isEqualTo(1);
        }
    }

    /**
     * COPY FROM STDIN in the extended protocol as libpq sends it (PQexecParams): Bind, Execute, Sync, CopyData,
     * CopyDone, Sync. The server ignores the Sync it reads in copy mode and answers one ReadyForQuery; the proxy
     * must not wait for a second, or every later statement would keep its permits until the next one's answers.
     */
    @Test
    void anExtendedCopyInLeavesLaterStatementsTheirReleases(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = proxy(pg, Duration.ofSeconds(30), Duration.ofSeconds(5));
                RawPgClient client = wideSession(proxy, "copy hold_sink from stdin")) {
            client.send('B', body(cstring(""), cstring("s1"), int16(0), int16(0), int16(0)));
            client.send('E', body(cstring(""), int32(0)));
            client.send('S', new byte[0]);
            client.send('d', "1\n".getBytes(StandardCharsets.US_ASCII));
            client.send('c', new byte[0]);
            client.send('S', new byte[0]);
            assertThat(client.readUntilReady()).extracting(RawPgClient.Message::type)
                    .containsExactly('1', '2', 'G', 'C', 'Z');

            client.query(StarSchema.star(14, "a report after the copy"));
            client.readUntilReady();
            assertThat(control.gateways().state(Tier.LARGE).admittedTotal()).isEqualTo(1);
            assertThat(control.gateways().state(Tier.LARGE).active()).as("given back with its answers").isZero();
        }
    }

    /** A raw protocol session of the trusted user, planning wide, with {@code sql} parsed as statement s1. */
    private static RawPgClient wideSession(ProxyFixture proxy, String sql) throws IOException {
        RawPgClient client = new RawPgClient(proxy.server().port());
        try {
            client.startup("memogate_trust", DATABASE);
            client.query(StarSchema.WIDE);
            client.readUntilReady();
            client.send('P', body(cstring("s1"), cstring(sql), int16(0)));
            return client;
        } catch (IOException | RuntimeException e) {
            client.close();
            throw e;
        }
    }

    /** Whether {@code backend} sleeps in pg_sleep: the procedure has planned its star and runs on. */}

package io.memogate.proxy.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.broker.gateway.Tier;
import io.memogate.broker.gateway.TierSettings;
import io.memogate.proxy.admission.AdmissionControl;
import io.memogate.proxy.metrics.GatewayMeters;
import io.memogate.proxy.postgres.PostgresServer;
import io.memogate.proxy.postgres.catalog.IndexCatalogs;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgresExtension;
import io.memogate.proxy.postgres.embedded.PasswordKind;
import io.memogate.proxy.testing.Await;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The proxy with its real estimator and gateways in front of PostgreSQL 18, planning star joins that
 * need over a hundred megabytes each: they queue in the gateways instead of compiling all at once,
 * every one finishes, a queued one can be cancelled, and one that waits too long is refused with
 * 53000 leaving its transaction failed, exactly as PostgreSQL would.
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class AdmissionIT {

    private static final String DATABASE = StarSchema.DATABASE;
    private static final String WIDE = StarSchema.WIDE;

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final GatewayMeters meters = new GatewayMeters();
    /** Not the common pool: on two cores it has one thread, which a blocking client would take. */
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private AdmissionControl control;

    @BeforeEach
    void schema(EmbeddedPostgres pg) throws SQLException {
        StarSchema.ensure(pg);
    }

    @AfterEach
    void stop() {
        threads.shutdownNow();
        if (control != null) {
            control.close();
        }
    }

    private ProxyFixture proxy(EmbeddedPostgres pg, GatewaySettings settings, long targetBytes) throws InterruptedException {
        return proxy(pg, IndexCatalogs.NONE, settings, targetBytes);
    }

    private ProxyFixture proxy(EmbeddedPostgres pg, IndexCatalogs catalogs, GatewaySettings settings, long targetBytes)
            throws InterruptedException {
        control = AdmissionControl.builder(AdmissionControl.ONLY_SERVER, PostgresServer.KIND, settings).catalogs(catalogs)
                .staticTargetBytes(targetBytes).gatewayListener(meters).build();
        meters.gateways(control.gateways());
        meters.bindTo(registry);
        return ProxyFixture.to(pg.host(), pg.port()).admission(control.hook()).admissionSupport(control.support()).start();
    }

    static String star(int tables, String tag) {
        return StarSchema.star(tables, tag);
    }

    /** Runs the star join {@code sql} (empty tables: a count of 0) and checks it was the one statement through LARGE. */
    private void assertRunsThroughLarge(Statement statement, String sql, String why) throws SQLException {
        try (ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            assertThat(rows.getLong(1)).isZero();
        }
        assertThat(control.gateways().state(Tier.LARGE).admittedTotal()).as(why).isEqualTo(1);
    }

    /** Checks that the session's server process plans with geqo_threshold and join_collapse_limit at 20. */
    private static void assertWideOnTheServer(Statement statement, String why) throws SQLException {
        try (ResultSet shown = statement.executeQuery("select current_setting('geqo_threshold'), "
                + "current_setting('join_collapse_limit')")) {
            shown.next();
            assertThat(List.of(shown.getString(1), shown.getString(2))).as(why).containsExactly("20", "20");
        }
    }

    /** Fractions low enough that a 14-table star (about 125 MB) needs LARGE: t1 = t2 = 102 MB at most. */
    private static GatewaySettings fourteenTablesNeedLarge() {
        return GatewaySettings.defaults(2)
                .with(Tier.SMALL, GatewaySettings.defaults(2).small().withFraction(0.05))
                .with(Tier.MEDIUM, GatewaySettings.defaults(2).medium().withFraction(0.05));
    }

    @Test
    void twelveSessionsPlanningStarJoinsQueueAndAllFinish(EmbeddedPostgres pg) throws Exception {
        int sessions = 12;
        try (ProxyFixture proxy = proxy(pg, fourteenTablesNeedLarge(), 2L << 30)) {
            Gauge largeActive = registry.get("memogate.gateway.active").tag("tier", "large").gauge();
            Gauge largeWaiting = registry.get("memogate.gateway.waiting").tag("tier", "large").gauge();
            AtomicInteger largestLargeActive = new AtomicInteger();
            AtomicInteger mostLargeWaiting = new AtomicInteger();
            AtomicBoolean sampling = new AtomicBoolean(true);
            CompletableFuture<Void> sampler = CompletableFuture.runAsync(() -> {
                while (sampling.get()) {
                    largestLargeActive.accumulateAndGet((int) largeActive.value(), Math::max);
                    mostLargeWaiting.accumulateAndGet((int) largeWaiting.value(), Math::max);
                    try {
                        Thread.sleep(1); // the sampling period: this waits for nothing
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, threads);
            ExecutorService clients = Executors.newFixedThreadPool(sessions);
            try {
                List<Future<Long>> results = new ArrayList<>();
                for (int i = 0; i < sessions; i++) {
                    String tag = "session " + i;
                    results.add(clients.submit(() -> {
                        try (Connection connection = proxy.connect(DATABASE, "memogate", "memogate");
                                Statement statement = connection.createStatement()) {
                            statement.execute(WIDE);
                            try (ResultSet rows = statement.executeQuery(star(14, tag))) {
                                rows.next();
                                return rows.getLong(1);
                            }
                        }
                    }));
                }
                for (Future<Long> result : results) {
                    assertThat(result.get(5, TimeUnit.MINUTES)).as("every session's star join finished").isZero();
                }
            } finally {
                clients.shutdownNow();
                sampling.set(false);
                sampler.get(10, TimeUnit.SECONDS);
            }
            assertThat(largestLargeActive.get()).as("LARGE never above its limit of 1").isBetween(1, 1);
            Timer largeWaits = registry.get("memogate.gateway.wait").tag("tier", "large").timer();
            assertThat(mostLargeWaiting.get() > 0 || largeWaits.max(TimeUnit.NANOSECONDS) > 0)
                    .as("statements waited for LARGE").isTrue();
            assertThat(control.gateways().state(Tier.LARGE).admittedTotal()).as("all twelve went through LARGE")
                    .isEqualTo(sessions);
            assertThat(control.gateways().ledger().inFlightBytes()).as("everything released").isZero();
        }
    }

    @Test
    void anExecuteOfAStatementPreparedInSqlGoesThroughTheGateways(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = proxy(pg, fourteenTablesNeedLarge(), 2L << 30);
                Connection connection = proxy.connect(DATABASE, "memogate", "memogate");
                Statement statement = connection.createStatement()) {
            statement.execute(WIDE);
            statement.execute("prepare wide_star as " + star(14, "prepared"));
            assertThat(control.gateways().state(Tier.SMALL).admittedTotal()).as("PREPARE plans nothing").isZero();
            assertRunsThroughLarge(statement, "execute wide_star", "EXECUTE estimated as the 14-table star it runs");
        }
    }

    /**
     * A SET the server refuses, and a SET rolled back with the query string whose later statement failed,
     * leave the wide settings in force on the server; the estimate must follow them, or a 14-table star
     * would be estimated under GEQO or a collapse limit of 1 and pass the gateways it needs.
     */
    @Test
    void setsTheServerRefusesOrRollsBackDoNotChangeTheEstimate(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = proxy(pg, fourteenTablesNeedLarge(), 2L << 30);
                Connection connection = proxy.connect(DATABASE, "memogate", "memogate");
                Statement statement = connection.createStatement()) {
            statement.execute(WIDE);
            assertThatThrownBy(() -> statement.execute("set geqo_threshold = 'x'"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("22023"));
            assertThatThrownBy(() -> statement.execute("set join_collapse_limit = 1; select 1/0"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("22012"));
            assertWideOnTheServer(statement, "the server kept the wide settings");
            assertRunsThroughLarge(statement, star(14, "after refused sets"),
                    "the star estimated under the settings the server planned it with");
        }
    }

    /**
     * A DBA gives a BI role its collapse limits with ALTER ROLE ... IN DATABASE ... SET, not in each session:
     * the estimate reads them (with the database's catalog, through the monitoring role), so the role's
     * 14-table star, planned exhaustively, takes LARGE though the session sets nothing, and though it is
     * the first statement the proxy sees for the database (it waits for the catalog's first read).
     */
    @Test
    void aRolesOwnSettingsInTheDatabaseReachItsEstimates(EmbeddedPostgres pg) throws Exception {
        String role = "bi_wide";
        pg.createUser(role, "bi", PasswordKind.SCRAM);
        pg.execute(DATABASE, "grant select on all tables in schema public to " + role,
                "alter role " + role + " in database " + DATABASE + " set join_collapse_limit = 20",
                "alter role " + role + " set from_collapse_limit = 20",
                "alter database " + DATABASE + " set geqo_threshold = 20");
        try (ProxyFixture proxy = proxy(pg, catalogs(pg), fourteenTablesNeedLarge(), 2L << 30);
                // application_name in the startup packet, not in a SET: the star is the first statement.
                Connection connection = proxy.connect(DATABASE, role, "bi", "assumeMinServerVersion", "10");
                Statement statement = connection.createStatement()) {
            assertRunsThroughLarge(statement, star(14, "role settings"),
                    "estimated under the role's and database's settings");
        } finally {
            pg.execute(DATABASE, "alter database " + DATABASE + " reset geqo_threshold");
        }
    }

    /**
     * A PL/pgSQL function without a SET clause that runs SET (and set_config(..., false)) changes its session's
     * settings for every statement after it, as the server shows: with the database's catalog the estimate
     * follows, so the 14-table star after a call of it is estimated as planned exhaustively, and takes LARGE.
     */
    @Test
    void aFunctionsSetsReachTheEstimatesOfTheSessionsLaterStatements(EmbeddedPostgres pg) throws Exception {
        pg.execute(DATABASE, "create or replace function widen_session() returns void language plpgsql as $$"
                + " begin set join_collapse_limit = 20; set from_collapse_limit = 20;"
                + " perform set_config('geqo_threshold', '20', false); end $$");
        try (ProxyFixture proxy = proxy(pg, catalogs(pg), fourteenTablesNeedLarge(), 2L << 30);
                Connection connection = proxy.connect(DATABASE, "memogate", "memogate");
                Statement statement = connection.createStatement()) {
            statement.execute("select 1"); // waits for the database's first catalog read
            statement.execute("select widen_session()");
            assertWideOnTheServer(statement, "the server's settings after the call");
            assertRunsThroughLarge(statement, star(14, "after widen_session()"),
                    "the star estimated under the settings the function left");
        }
    }

    /**
     * The same through server-side prepared statements (pgjdbc's prepareThreshold 1): "select widen_session()"
     * passes admission without a gateway, and its later Binds are not asked again, but each still sets the
     * session's settings: bound again after a call that narrowed them, the wide settings are back on the server
     * and in the estimate.
     */
    @Test
    void aPreparedCallOfAFunctionThatSetsChangesTheEstimatesAtEachRun(EmbeddedPostgres pg) throws Exception {
        pg.execute(DATABASE, "create or replace function widen_session() returns void language plpgsql as $$"
                        + " begin set join_collapse_limit = 20; set from_collapse_limit = 20;"
                        + " perform set_config('geqo_threshold', '20', false); end $$",
                "create or replace function narrow_session() returns void language plpgsql as $$"
                        + " begin set join_collapse_limit = 1; end $$");
        try (ProxyFixture proxy = proxy(pg, catalogs(pg), fourteenTablesNeedLarge(), 2L << 30);
                Connection connection = proxy.connect(DATABASE, "memogate", "memogate", "prepareThreshold", "1");
                Statement statement = connection.createStatement();
                PreparedStatement widen = connection.prepareStatement("select widen_session()");
                PreparedStatement narrow = connection.prepareStatement("select narrow_session()")) {
            statement.execute("select 1"); // waits for the database's first catalog read
            for (PreparedStatement call : List.of(widen, narrow, widen)) {
                call.execute();
            }
            assertWideOnTheServer(statement, "the server's settings after the last call");
            assertRunsThroughLarge(statement, star(14, "after widen_session() again"),
                    "the star estimated under the settings the last call left");
        }
    }

    /**
     * A view over a 14-table star is a 14-table join search once PostgreSQL's rewriter has expanded it: with
     * its database's catalog the estimate expands it too, so a count over the view, whose text names one
     * relation, takes LARGE. It is the first statement the proxy sees for the database: it waits for the
     * catalog's first read rather than pass as one relation.
     */
    @Test
    void aViewOverAStarIsEstimatedAsTheStarFromTheFirstStatement(EmbeddedPostgres pg) throws Exception {
        pg.execute(DATABASE, "create or replace view star14_view as " + star(14, "view").replace("count(*)", "t0.a"),
                "grant select on star14_view to public");
        try (ProxyFixture proxy = proxy(pg, catalogs(pg), fourteenTablesNeedLarge(), 2L << 30);
                Connection connection = proxy.connect(DATABASE, "memogate", "memogate");
                Statement statement = connection.createStatement()) {
            statement.execute(WIDE + "; select count(*) from star14_view");
            assertThat(control.gateways().state(Tier.LARGE).admittedTotal()).as("the view's fourteen tables")
                    .isEqualTo(1);
        }
    }

    /** REFRESH MATERIALIZED VIEW plans the view's query: over a 14-table star, through LARGE. */
    @Test
    void aRefreshOfAMaterializedStarTakesLarge(EmbeddedPostgres pg) throws Exception {
        pg.execute(DATABASE, "drop materialized view if exists star14_mv",
                "create materialized view star14_mv as " + star(14, "materialized").replace("count(*)", "t0.a"),
                "alter materialized view star14_mv owner to memogate");
        try (ProxyFixture proxy = proxy(pg, catalogs(pg), fourteenTablesNeedLarge(), 2L << 30);
                Connection connection = proxy.connect(DATABASE, "memogate", "memogate");
                Statement statement = connection.createStatement()) {
            statement.execute(WIDE); // waits for the database's first catalog read
            statement.execute("refresh materialized view star14_mv");
            assertThat(control.gateways().state(Tier.LARGE).admittedTotal()).as("the refresh plans fourteen tables")
                    .isEqualTo(1);
        }
    }

    /**
     * A DO block plans its body's queries while it runs, after pgjdbc's Bind was answered: it goes through
     * LARGE as its 14-table star would, and holds the permit until the block is over (here it waits on an
     * advisory lock the test holds, after planning the star). The server sends BindComplete with its next
     * flush: the block's NOTICE, before the star is planned.
     */
    @Test
    void aDoBlockGoesThroughLargeAndHoldsItsPermitUntilItEnds(EmbeddedPostgres pg) throws Exception {
        String block = "do $$ begin raise notice 'planning the star'; perform (" + star(14, "in a DO block")
                + "); perform pg_advisory_xact_lock(4242); end $$";
        try (ProxyFixture proxy = proxy(pg, fourteenTablesNeedLarge(), 2L << 30);
                Connection lockHolder = pg.connect(DATABASE);
                Connection connection = proxy.connect(DATABASE, "memogate", "memogate");
                Statement statement = connection.createStatement()) {
            statement.execute(WIDE);
            int backend;
            try (ResultSet rows = statement.executeQuery("select pg_backend_pid()")) {
                rows.next();
                backend = rows.getInt(1);
            }
            lockHolder.setAutoCommit(false);
            try (Statement lock = lockHolder.createStatement()) {
                lock.execute("select pg_advisory_xact_lock(4242)");
            }
            CompletableFuture<Boolean> running = CompletableFuture.supplyAsync(() -> {
                try {
                    return statement.execute(block); // the extended protocol: Parse, Bind, Execute, Sync
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            }, threads);
            Await.until("the block waits on the advisory lock", () -> waitsOnTheAdvisoryLock(pg, backend));
            assertThat(running).as("the block waits for the lock, its star planned").isNotDone();
            assertThat(control.gateways().state(Tier.LARGE).active()).as("the block still holds LARGE").isEqualTo(1);
            lockHolder.rollback();
            running.get(60, TimeUnit.SECONDS);
            assertThat(control.gateways().state(Tier.LARGE).admittedTotal()).isEqualTo(1);
            assertThat(control.gateways().ledger().inFlightBytes()).as("released when the block ended").isZero();
        }
    }

    @Test
    void aDoBlockSentInTheSimpleProtocolGoesThroughLarge(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = proxy(pg, fourteenTablesNeedLarge(), 2L << 30);
                Connection connection = simpleProtocol(proxy);
                Statement statement = connection.createStatement()) {
            statement.execute(WIDE);
            statement.execute("do $$ begin perform (" + star(14, "simple DO") + "); end $$");
            assertThat(control.gateways().state(Tier.LARGE).admittedTotal()).isEqualTo(1);
            assertThat(control.gateways().ledger().inFlightBytes()).isZero();
        }
    }

    private static boolean waitsOnTheAdvisoryLock(EmbeddedPostgres pg, int backend) {
        return ServerActivity.waitEvent(pg, DATABASE, backend).startsWith("Lock:");
    }

    /**
     * A PL/pgSQL function and a procedure that each count the 14-table star go through LARGE, read from the
     * catalog; the function's NOTICE flushes pgjdbc's BindComplete before the star is planned.
     */
    @Test
    void callsOfRoutinesOverAStarGoThroughLarge(EmbeddedPostgres pg) throws Exception {
        pg.execute(DATABASE, "create or replace function star14_report() returns bigint language plpgsql as $$"
                        + " begin raise notice 'counting'; return (" + star(14, "in a function") + "); end $$",
                "create or replace procedure star14_load() language plpgsql as $$ begin perform ("
                        + star(14, "in a procedure") + "); end $$");
        try (ProxyFixture proxy = proxy(pg, catalogs(pg), fourteenTablesNeedLarge(), 2L << 30);
                Connection connection = proxy.connect(DATABASE, "memogate", "memogate");
                Statement statement = connection.createStatement()) {
            statement.execute(WIDE); // waits for the database's first catalog read
            try (ResultSet rows = statement.executeQuery("select star14_report()")) {
                rows.next();
                assertThat(rows.getLong(1)).isZero();
            }
            assertThat(control.gateways().state(Tier.LARGE).admittedTotal()).as("the function").isEqualTo(1);
            statement.execute("call star14_load()");
            assertThat(control.gateways().state(Tier.LARGE).admittedTotal()).as("the procedure").isEqualTo(2);
            assertThat(control.gateways().ledger().inFlightBytes()).isZero();
        }
    }

    /**
     * pgjdbc sends a batch as Bind/Execute pairs and one Sync. With one slot per tier the second Bind waits
     * for the permit the first holds until its BindComplete, which the server sends only at a Sync or Flush,
     * and the Sync is behind the waiting Bind: the proxy sends a Flush, and both run.
     */
    @Test
    void aBatchOfTwoStarsInOneSyncIsNotRefusedByItsOwnFirstStatement(EmbeddedPostgres pg) throws Exception {
        pg.execute(DATABASE, "create table if not exists batch_sink (n bigint)", "truncate batch_sink",
                "grant all on batch_sink to memogate");
        try (ProxyFixture proxy = proxy(pg, oneAtATime(Duration.ofSeconds(2)), 2L << 30);
                Connection connection = proxy.connect(DATABASE, "memogate", "memogate");
                Statement statement = connection.createStatement()) {
            statement.execute(WIDE);
            try (PreparedStatement batch = connection.prepareStatement("insert into batch_sink " + star(14, "batch"))) {
                batch.addBatch();
                batch.addBatch();
                assertThat(batch.executeBatch()).containsExactly(1, 1);
            }
            try (ResultSet rows = statement.executeQuery("select count(*) from batch_sink")) {
                rows.next();
                assertThat(rows.getInt(1)).isEqualTo(2);
            }
            assertThat(control.gateways().state(Tier.SMALL).admittedTotal()).as("one at a time").isEqualTo(2);
        }
    }

    /**
     * The same with calls of a procedure planned while it runs: the first call's permit is held past its
     * BindComplete, until its Execute completes, which the Flush also brings.
     */
    @Test
    void aBatchOfTwoRoutineCallsInOneSyncIsNotRefusedByItsOwnFirstCall(EmbeddedPostgres pg) throws Exception {
        pg.execute(DATABASE, "create or replace procedure star14_batch() language plpgsql as $$"
                + " begin raise notice 'counting'; perform (" + star(14, "in a batched procedure") + "); end $$");
        try (ProxyFixture proxy = proxy(pg, catalogs(pg), oneAtATime(Duration.ofSeconds(2)), 2L << 30);
                Connection connection = proxy.connect(DATABASE, "memogate", "memogate");
                Statement statement = connection.createStatement()) {
            statement.execute(WIDE); // waits for the database's first catalog read
            try (PreparedStatement batch = connection.prepareStatement("call star14_batch()")) {
                batch.addBatch();
                batch.addBatch();
                batch.executeBatch();
            }
            assertThat(control.gateways().state(Tier.SMALL).admittedTotal()).as("one at a time").isEqualTo(2);
            assertThat(control.gateways().ledger().inFlightBytes()).isZero();
        }
    }

    /**
     * A prepared statement that needed no admission is asked about again once the catalog changed: here its
     * function, trivial when it was first bound, is replaced by one that counts the 14-table star.
     */
    @Test
    void aPreparedStatementThatBypassedIsEstimatedAgainAfterTheCatalogChanges(EmbeddedPostgres pg) throws Exception {
        pg.execute(DATABASE, "create or replace function late_report() returns bigint language plpgsql as $$"
                + " begin return 0; end $$");
        IndexCatalogs catalogs = catalogs(pg);
        try (ProxyFixture proxy = proxy(pg, catalogs, fourteenTablesNeedLarge(), 2L << 30);
                Connection connection = proxy.connect(DATABASE, "memogate", "memogate", "prepareThreshold", "1");
                Statement statement = connection.createStatement();
                PreparedStatement report = connection.prepareStatement("select late_report()")) {
            statement.execute(WIDE); // waits for the database's first catalog read
            for (int i = 0; i < 2; i++) {
                try (ResultSet rows = report.executeQuery()) { // a named server-side statement, bound again
                    rows.next();
                }
            }
            assertThat(control.gateways().state(Tier.SMALL).admittedTotal()).as("trivial: bypassed").isZero();
            pg.execute(DATABASE, "create or replace function late_report() returns bigint language plpgsql as $$"
                    + " begin return (" + star(14, "late") + "); end $$");
            catalogs.refresh(DATABASE).get(30, TimeUnit.SECONDS);
            try (ResultSet rows = report.executeQuery()) {
                rows.next();
                assertThat(rows.getLong(1)).isZero();
            }
            assertThat(control.gateways().state(Tier.LARGE).admittedTotal()).as("now the star").isEqualTo(1);
        }
    }

    /** The test server's catalogs, read as with broker.monitor. */
    private static IndexCatalogs catalogs(EmbeddedPostgres pg) {
        return new IndexCatalogs(database -> Optional.of(pg.jdbcUrl(database)), pg.superuser(), pg.superuserPassword());
    }

    /** One slot in every tier, and statements held until ReadyForQuery by a second statement that sleeps. */
    private static GatewaySettings oneAtATime(Duration timeout) {
        TierSettings one = new TierSettings(1, 0.25, 10, timeout);
        return GatewaySettings.defaults(1).with(Tier.SMALL, one).with(Tier.MEDIUM, one.withFraction(0.5))
                .with(Tier.LARGE, one.withFraction(1.0));
    }

    /**
     * Starts a statement on {@code holder} that holds every tier for {@code seconds}: a query string of
     * two statements sent in the simple protocol keeps the larger one's permits until ReadyForQuery,
     * which comes after the sleep. Returns once the gateways hold it.
     */
    private CompletableFuture<Void> holdTheGateways(Connection holder, int seconds) throws InterruptedException {
        CompletableFuture<Void> holding = CompletableFuture.runAsync(() -> {
            try (Statement statement = holder.createStatement()) {
                statement.execute(WIDE);
                statement.execute(star(12, "holder") + "; select pg_sleep(" + seconds + ")");
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }, threads);
        Await.until("the holder admitted to SMALL", () -> control.gateways().state(Tier.SMALL).active() == 1);
        return holding;
    }

    private Connection simpleProtocol(ProxyFixture proxy) throws SQLException {
        return proxy.connect(DATABASE, "memogate", "memogate", "preferQueryMode", "simple");
    }

    @Test
    void aQueuedStatementCancelledIsAnswered57014WhileTheOtherStillCompilesAndItsConnectionGoesOn(EmbeddedPostgres pg)
            throws Exception {
        try (ProxyFixture proxy = proxy(pg, oneAtATime(Duration.ofMinutes(5)), 2L << 30);
                Connection first = simpleProtocol(proxy);
                Connection second = proxy.connect(DATABASE, "memogate", "memogate");
                Statement queued = second.createStatement()) {
            queued.execute(WIDE);
            CompletableFuture<Void> holding = holdTheGateways(first, 4);
            CompletableFuture<Void> canceller = CompletableFuture.runAsync(() -> {
                try {
                    Await.until("a statement queued", () -> !control.gateways().waiting().isEmpty());
                    queued.cancel();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, threads);
            assertThatThrownBy(() -> queued.executeQuery(star(12, "queued")))
                    .isInstanceOf(SQLException.class)
                    .satisfies(e -> {
                        assertThat(((SQLException) e).getSQLState()).isEqualTo("57014");
                        assertThat(e.getMessage()).as("withdrawn, not cancelled on the server")
                                .contains("admission queue");
                    });
            canceller.get(30, TimeUnit.SECONDS);
            assertThat(holding).as("answered while the first statement still holds the gateway").isNotDone();
            assertThat(control.gateways().waiting()).as("the queue is empty again").isEmpty();
            holding.get(60, TimeUnit.SECONDS);
            try (ResultSet rows = queued.executeQuery(star(12, "after the cancel"))) {
                rows.next();
                assertThat(rows.getLong(1)).isZero();
            }
        }
    }

    @Test
    void aStatementThatWaitsTooLongInsideBeginIs53000AndCommitAnswersRollback(EmbeddedPostgres pg) throws Exception {
        pg.execute(DATABASE, "create table if not exists timed_out (id int)", "truncate timed_out",
                "grant all on timed_out to memogate");
        try (ProxyFixture proxy = proxy(pg, oneAtATime(Duration.ofMillis(300)), 2L << 30);
                Connection first = simpleProtocol(proxy);
                Connection second = proxy.connect(DATABASE, "memogate", "memogate");
                Statement waiting = second.createStatement()) {
            waiting.execute(WIDE);
            CompletableFuture<Void> holding = holdTheGateways(first, 3);
            waiting.execute("begin");
            waiting.execute("insert into timed_out values (1)");
            assertThatThrownBy(() -> waiting.executeQuery(star(12, "waits too long")))
                    .isInstanceOf(SQLException.class)
                    .satisfies(e -> {
                        assertThat(((SQLException) e).getSQLState()).isEqualTo("53000");
                        assertThat(e.getMessage()).contains("gateway").contains("waited").contains("estimate");
                    });
            assertThatThrownBy(() -> waiting.execute("select 1")).isInstanceOf(SQLException.class)
                    .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("25P02");
            waiting.execute("commit");
            try (ResultSet rows = waiting.executeQuery("select count(*) from timed_out")) {
                rows.next();
                assertThat(rows.getInt(1)).as("the failed transaction committed nothing").isZero();
            }
            assertThat(holding).as("refused while the holder still held the gateways").isNotDone();
            holding.get(60, TimeUnit.SECONDS);
            assertThat(registry.get("memogate.gateway.timeouts").tag("tier", "small").functionCounter().count())
                    .isEqualTo(1);
        }
    }
}

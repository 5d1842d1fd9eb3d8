package io.memogate.broker.probe.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.memogate.broker.probe.MemorySnapshot;
import io.memogate.broker.probe.ProbeException;
import io.memogate.broker.probe.ProbeSettings;

/**
 * The probe against a private MariaDB (performance_schema on, its memory instruments too) as three monitoring
 * users: one with PROCESS and SELECT on performance_schema, one with only the latter, one with neither.
 * Other connections give it something to see: a statement sleeping, and a 13-table star join whose join-order
 * search, with pruning off, runs for many seconds (the server's "Statistics" stage) until the test kills it.
 */
class MySqlProbeIT {

    private static final String APP = "app";
    private static final String SECRET = "app-secret";
    private static final int STAR_TABLES = 13;

    private static MariaDbServer server;
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger probeLogger = (Logger) LoggerFactory.getLogger(MySqlProbe.class);

    @BeforeAll
    static void startServer() throws Exception {
        String missing = MariaDbServer.missing();
        assumeTrue(missing.isEmpty(), missing);
        server = MariaDbServer.start(List.of("--performance-schema=ON",
                "--performance-schema-instrument=memory/%=ON"));
        StringBuilder sql = new StringBuilder("CREATE DATABASE star; USE star;\n");
        for (int i = 0; i < STAR_TABLES; i++) {
            sql.append("CREATE TABLE t").append(i).append(" (id INT PRIMARY KEY, a INT, b INT, KEY (a));\n")
                    .append("INSERT INTO t").append(i).append(" SELECT seq, seq % 7, seq % 5 FROM seq_1_to_20;\n");
        }
        sql.append("CREATE USER ").append(APP).append("@'%' IDENTIFIED BY '").append(SECRET).append("';\n")
                .append("GRANT ALL ON *.* TO ").append(APP).append("@'%';\n")
                .append("CREATE USER mon@'%' IDENTIFIED BY 'mon'; GRANT PROCESS ON *.* TO mon@'%';\n")
                .append("GRANT SELECT ON performance_schema.* TO mon@'%';\n")
                .append("CREATE USER plain@'%' IDENTIFIED BY 'plain'; GRANT SELECT ON performance_schema.* TO plain@'%';\n")
                .append("CREATE USER bare@'%' IDENTIFIED BY 'bare';\n");
        server.asRoot(sql.toString());
    }

    @AfterAll
    static void stopServer() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @BeforeEach
    void captureLog() {
        log.start();
        probeLogger.addAppender(log);
    }

    @AfterEach
    void releaseLog() {
        probeLogger.detachAppender(log);
    }

    @Test
    void withProcessSeesEveryConnectionAndTheStatementBeingOptimized() throws Exception {
        try (MySqlProbe probe = probe("mon", "mon"); Connection app = connect(APP, SECRET)) {
            long appId = connectionId(app);
            CompletableFuture<Void> star = runAsync(app, "SET STATEMENT optimizer_prune_level=0 FOR " + starJoin());
            try {
                MemorySnapshot compiling = await(probe, snapshot -> snapshot.memory().compileBytes().orElse(0) > 0);
                assertThat(compiling.connections().ids()).contains((int) appId);
                assertThat(compiling.connections().active()).isGreaterThanOrEqualTo(1);
                assertThat(compiling.memory().retainedBytesById()).containsKey((int) appId);
                assertThat(compiling.memory().queryBytes()).isGreaterThanOrEqualTo(compiling.memory().compileBytes().getAsLong());
            } finally {
                server.asRoot("KILL QUERY " + appId);
                star.handle((done, failure) -> null).join();
            }
            MemorySnapshot quiet = await(probe, snapshot -> snapshot.memory().compileBytes().orElse(-1) == 0);
            assertThat(quiet.connections().ids()).contains((int) appId);
            assertThat(quiet.version().text()).contains("MariaDB");
            assertThat(quiet.version().number()).isGreaterThanOrEqualTo(100500);
            assertThat(quiet.memory().cacheBytes()).isEqualTo(64L << 20);
            assertThat(quiet.plannerSettings()).containsEntry("optimizer_search_depth", "62")
                    .containsKey("optimizer_prune_level");
            assertThat(quiet.plannerSettings().get("optimizer_switch")).contains("index_merge=");
        }
        assertThat(log.list).isEmpty();
    }

    @Test
    void withoutProcessCountsConnectionsFromStatusAndSaysWhatToGrant() throws Exception {
        try (MySqlProbe probe = probe("plain", "plain"); Connection app = connect(APP, SECRET)) {
            long appId = connectionId(app);
            CompletableFuture<Void> sleeping = runAsync(app, "SELECT SLEEP(60)");
            try {
                MemorySnapshot snapshot = await(probe, seen -> seen.connections().active() >= 1);
                assertThat(snapshot.connections().ids()).isEmpty();
                assertThat(snapshot.memory().retainedBytesById()).isEmpty();
                assertThat(snapshot.memory().queryBytes()).isPositive();
                // Without PROCESS, compile memory comes from performance_schema's statement arenas.
                assertThat(snapshot.memory().compileBytes()).isPresent();
            } finally {
                server.asRoot("KILL QUERY " + appId);
                sleeping.handle((done, failure) -> null).join();
            }
        }
        assertThat(log.list).singleElement().extracting(ILoggingEvent::getFormattedMessage).asString()
                .contains("'plain'@'%'", "GRANT PROCESS ON *.* TO 'plain'@'%'")
                .doesNotContain("GRANT SELECT ON performance_schema");
    }

    @Test
    void withoutAnyGrantReadsNoCompileMemoryAndNamesBothGrants() throws Exception {
        try (MySqlProbe probe = probe("bare", "bare")) {
            MemorySnapshot snapshot = probe.probe();
            assertThat(snapshot.memory().compileBytes()).isEmpty();
            assertThat(snapshot.connections().ids()).isEmpty();
            assertThat(snapshot.plannerSettings()).containsKeys("optimizer_search_depth", "optimizer_prune_level",
                    "optimizer_switch");
            probe.probe();
        }
        assertThat(log.list).as("logged once, not at every poll").singleElement()
                .extracting(ILoggingEvent::getFormattedMessage).asString()
                .contains("GRANT PROCESS ON *.* TO 'bare'@'%'", "GRANT SELECT ON performance_schema.* TO 'bare'@'%'");
    }

    @Test
    void serverSettingsAreWhatANewSessionGets() throws Exception {
        try (MySqlProbe probe = probe("mon", "mon"); Connection app = connect(APP, SECRET);
             Statement statement = app.createStatement()) {
            statement.execute("SET GLOBAL optimizer_search_depth = 7");
            try {
                assertThat(probe.probe().plannerSettings()).containsEntry("optimizer_search_depth", "7");
            } finally {
                statement.execute("SET GLOBAL optimizer_search_depth = DEFAULT");
            }
            assertThat(probe.probe().plannerSettings()).containsEntry("optimizer_search_depth", "62");
        }
    }

    @Test
    void aRefusedLoginFailsThePollNamingServerAndUser() {
        try (MySqlProbe probe = probe("mon", "wrong")) {
            assertThatThrownBy(probe::probe).isInstanceOf(ProbeException.class)
                    .hasMessageContaining("cannot connect to jdbc:mariadb://127.0.0.1:" + server.port())
                    .hasMessageContaining("as mon").hasMessageContaining("Access denied");
        }
    }

    @Test
    void aClosedProbeFails() {
        MySqlProbe probe = probe("mon", "mon");
        probe.close();
        assertThatThrownBy(probe::probe).isInstanceOf(ProbeException.class).hasMessageContaining("is closed");
    }

    private static MySqlProbe probe(String user, String password) {
        return new MySqlProbe(new ProbeSettings("jdbc:mariadb://127.0.0.1:" + server.port() + "/", user, password,
                false, Duration.ofSeconds(10)), System::nanoTime);
    }

    private static Connection connect(String user, String password) throws SQLException {
        return DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + server.port() + "/star", user, password);
    }

    private static long connectionId(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
             var row = statement.executeQuery("SELECT CONNECTION_ID()")) {
            row.next();
            return row.getLong(1);
        }
    }

    private static CompletableFuture<Void> runAsync(Connection connection, String sql) {
        return CompletableFuture.runAsync(() -> {
            try (Statement statement = connection.createStatement()) {
                statement.execute(sql);
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** Every table joined to the first: with pruning off, the join-order search grows as 12! orders. */
    private static String starJoin() {
        StringBuilder sql = new StringBuilder("SELECT COUNT(*) FROM t0");
        for (int i = 1; i < STAR_TABLES; i++) {
            sql.append(" JOIN t").append(i).append(" ON t").append(i).append(".a = t0.b");
        }
        return sql.toString();
    }

    /** Polls until a snapshot shows what {@code condition} waits for: waits on the server's state, not on time. */
    private static MemorySnapshot await(MySqlProbe probe, Predicate<MemorySnapshot> condition) throws Exception {
        AtomicReference<MemorySnapshot> last = new AtomicReference<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            MemorySnapshot snapshot = probe.probe();
            last.set(snapshot);
            if (condition.test(snapshot)) {
                return snapshot;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no snapshot in 30 s showed what the test waits for; the last: " + last.get());
    }
}

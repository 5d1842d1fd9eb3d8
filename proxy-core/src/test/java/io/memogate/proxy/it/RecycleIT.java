package io.memogate.proxy.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.proxy.admission.AdmissionControl;
import io.memogate.proxy.config.AuthFile;
import io.memogate.proxy.config.RecycleConfig;
import io.memogate.proxy.metrics.GatewayMeters;
import io.memogate.proxy.postgres.PostgresServer;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgresExtension;
import io.memogate.proxy.postgres.embedded.TestUsers;
import io.memogate.proxy.testing.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Recycling against PostgreSQL 18 with every login method the server offers: after a statement whose
 * planner memory the ledger counts above {@code recycle.retainedAbove}, an idle session gets a new server
 * process, and the client goes on as if nothing happened — unless its session holds state a new process
 * would lack, or the proxy cannot log it in again. Every catalog join counts ({@link RecyclingProxy}).
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class RecycleIT {

    private static final String DATABASE = "demo";
    private static final String JOIN = RecyclingProxy.JOIN;

    @TempDir
    Path directory;
    private AdmissionControl control;

    @AfterEach
    void stop() {
        if (control != null) {
            control.close();
        }
    }

    private ProxyFixture proxy(EmbeddedPostgres pg, String... authFileLines) throws Exception {
        return proxy(pg.port(), authFileLines);
    }

    private ProxyFixture proxy(int serverPort, String... authFileLines) throws Exception {
        return proxy("127.0.0.1", serverPort, authFileLines);
    }

    private ProxyFixture proxy(String serverHost, int serverPort, String... authFileLines) throws Exception {
        control = RecyclingProxy.admission();
        ProxyFixture.Builder proxy = RecyclingProxy.to(serverHost, serverPort, control);
        if (authFileLines.length > 0) {
            Path file = Files.write(directory.resolve("userlist.txt"), List.of(authFileLines));
            proxy.recycle(new RecycleConfig(1, Optional.of(file), AuthFile.read(file)));
        }
        return proxy.start();
    }

    private static int pid(Connection connection) throws SQLException {
        return RecyclingProxy.serverPid(connection);
    }

    private static long join(Connection connection) throws SQLException {
        return RecyclingProxy.join(connection);
    }

    private static void awaitGone(EmbeddedPostgres pg, int pid) throws InterruptedException {
        Await.until("server process " + pid + " exited", Duration.ofSeconds(10), () -> !ServerActivity.exists(pg, pid));
    }

    /** The join, then the pid: a new process when recycled, the same one when not. */
    private static void assertRecycled(EmbeddedPostgres pg, Connection connection) throws Exception {
        int before = pid(connection);
        long count = join(connection);
        int after = pid(connection);
        assertThat(after).as("a new server process after the join").isNotEqualTo(before);
        assertThat(join(connection)).as("the same answer on the new process").isEqualTo(count);
        awaitGone(pg, before);
    }

    private static void assertKept(Connection connection) throws SQLException {
        int before = pid(connection);
        join(connection);
        join(connection);
        assertThat(pid(connection)).as("the same server process").isEqualTo(before);
    }

    @Test
    void scramLoginIsRepeatedWithTheAuthFilesPassword(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = proxy(pg, "\"" + TestUsers.SCRAM_USER + "\" \"" + TestUsers.SCRAM_PASSWORD + "\"");
                Connection connection = proxy.connect(DATABASE, TestUsers.SCRAM_USER, TestUsers.SCRAM_PASSWORD)) {
            assertRecycled(pg, connection);
            Set<Integer> pids = new HashSet<>();
            for (int i = 0; i < 10; i++) {
                join(connection);
                pids.add(pid(connection));
            }
            assertThat(pids).as("a new process after each join").hasSize(10);
            Await.until("the replaced connections closed, one left", Duration.ofSeconds(10),
                    () -> proxy.server().serverConnectionCount() == 1);
        }
    }

    @Test
    void scramVerifierFromPgAuthidServesAsWell(EmbeddedPostgres pg) throws Exception {
        String verifier;
        try (Connection direct = pg.connect("postgres"); Statement statement = direct.createStatement();
                ResultSet rows = statement.executeQuery(
                        "SELECT rolpassword FROM pg_authid WHERE rolname = '" + TestUsers.SCRAM_USER + "'")) {
            rows.next();
            verifier = rows.getString(1);
        }
        assertThat(verifier).startsWith("SCRAM-SHA-256$");
        try (ProxyFixture proxy = proxy(pg, "\"" + TestUsers.SCRAM_USER + "\" \"" + verifier + "\"");
                Connection connection = proxy.connect(DATABASE, TestUsers.SCRAM_USER, TestUsers.SCRAM_PASSWORD)) {
            assertRecycled(pg, connection);
        }
    }

    @Test
    void md5TrustAndCleartextLoginsAreRepeated(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = proxy(pg, "\"" + TestUsers.MD5_USER + "\" \"" + TestUsers.MD5_PASSWORD + "\"");
                Connection md5 = proxy.connect(DATABASE, TestUsers.MD5_USER, TestUsers.MD5_PASSWORD);
                Connection trust = proxy.connect(DATABASE, TestUsers.TRUST_USER, null);
                Connection cleartext = proxy.connect(DATABASE, TestUsers.PLAIN_USER, TestUsers.PLAIN_PASSWORD)) {
            assertRecycled(pg, md5);
            assertRecycled(pg, trust);
            assertRecycled(pg, cleartext);
        }
    }

    /** Over the server's Unix socket the new login and the cancel take the same way as the first login. */
    @Test
    void loginsAndCancelsAreRepeatedOverTheServersUnixSocket(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = proxy(pg.socketDirectory().toString(), pg.port(),
                "\"" + TestUsers.SCRAM_USER + "\" \"" + TestUsers.SCRAM_PASSWORD + "\"");
                Connection scram = proxy.connect(DATABASE, TestUsers.SCRAM_USER, TestUsers.SCRAM_PASSWORD);
                Connection trust = proxy.connect(DATABASE, TestUsers.TRUST_USER, null);
                Statement statement = scram.createStatement()) {
            assertRecycled(pg, scram);
            assertRecycled(pg, trust);
            ServerActivity.assertACancelEndsASleep(pg, statement);
        }
    }

    @Test
    void withoutAMatchingSecretTheConnectionIsKept(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = proxy(pg, "\"" + TestUsers.SCRAM_USER + "\" \"not the password\"",
                "\"" + TestUsers.MD5_USER + "\" \"md5" + "0".repeat(32) + "\"");
                Connection wrong = proxy.connect(DATABASE, TestUsers.SCRAM_USER, TestUsers.SCRAM_PASSWORD);
                Connection wrongMd5 = proxy.connect(DATABASE, TestUsers.MD5_USER, TestUsers.MD5_PASSWORD)) {
            assertKept(wrong);
            assertKept(wrongMd5);
        }
        try (ProxyFixture proxy = proxy(pg);
                Connection noFile = proxy.connect(DATABASE, TestUsers.SCRAM_USER, TestUsers.SCRAM_PASSWORD)) {
            assertKept(noFile);
        }
    }

    @Test
    void sessionStateKeepsTheConnectionAndStaysUsable(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = proxy(pg)) {
            List<String> statePerSession = List.of(
                    "CREATE TEMP TABLE kept (x int)",
                    "PREPARE kept AS SELECT 1",
                    "LISTEN kept",
                    "SELECT pg_advisory_lock(42)",
                    "BEGIN; DECLARE kept CURSOR WITH HOLD FOR SELECT 1; COMMIT");
            for (String state : statePerSession) {
                try (Connection connection = proxy.connect(DATABASE, TestUsers.TRUST_USER, null);
                        Statement statement = connection.createStatement()) {
                    statement.execute(state);
                    assertKept(connection);
                }
            }
            try (Connection connection = proxy.connect(DATABASE, TestUsers.TRUST_USER, null);
                    Statement statement = connection.createStatement()) {
                statement.execute("SET work_mem = '7MB'");
                statement.execute("CREATE TEMP TABLE kept AS SELECT 1 AS x");
                join(connection);
                try (ResultSet rows = statement.executeQuery("SELECT current_setting('work_mem'), (SELECT x FROM kept)")) {
                    rows.next();
                    assertThat(rows.getString(1)).isEqualTo("7MB");
                    assertThat(rows.getInt(2)).isEqualTo(1);
                }
            }
        }
    }

    @Test
    void sessionSettingsAreCarriedToTheNewProcess(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = proxy(pg);
                Connection connection = proxy.connect(DATABASE, TestUsers.TRUST_USER, null);
                Statement statement = connection.createStatement()) {
            statement.execute("SET work_mem = '7MB'");
            statement.execute("SET search_path = 'it''s', public");
            statement.execute("SELECT set_config('application_name', 'carried', false)");
            assertRecycled(pg, connection);
            try (ResultSet rows = statement.executeQuery("SELECT current_setting('work_mem'),"
                    + " current_setting('search_path'), current_setting('application_name')")) {
                rows.next();
                assertThat(rows.getString(1)).isEqualTo("7MB");
                assertThat(rows.getString(2)).isEqualTo("\"it's\", public");
                assertThat(rows.getString(3)).isEqualTo("carried");
            }
            statement.execute("RESET work_mem");
            assertRecycled(pg, connection);
            try (ResultSet rows = statement.executeQuery("SELECT current_setting('work_mem')")) {
                rows.next();
                assertThat(rows.getString(1)).as("a RESET stays reset").isEqualTo("4MB");
            }
        }
    }

    @Test
    void namedProtocolStatementsAreCarriedToTheNewProcess(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = proxy(pg);
                Connection connection = proxy.connect(DATABASE, TestUsers.TRUST_USER, null, "prepareThreshold", "1");
                PreparedStatement prepared = connection.prepareStatement(JOIN + " AND c.relkind = ?")) {
            Set<Integer> pids = new HashSet<>();
            long first = -1;
            for (int i = 0; i < 4; i++) {
                prepared.setString(1, "r");
                try (ResultSet rows = prepared.executeQuery()) {
                    rows.next();
                    first = i == 0 ? rows.getLong(1) : first;
                    assertThat(rows.getLong(1)).as("pgjdbc binds its server-side statement on each new process")
                            .isEqualTo(first);
                }
                pids.add(pid(connection));
            }
            assertThat(pids).as("recycled after each execution").hasSize(4);
        }
    }

    @Test
    void anOpenTransactionIsNeverInterrupted(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = proxy(pg);
                Connection connection = proxy.connect(DATABASE, TestUsers.TRUST_USER, null)) {
            connection.setAutoCommit(false);
            int before = pid(connection);
            join(connection);
            join(connection);
            assertThat(pid(connection)).isEqualTo(before);
            connection.commit();
            connection.setAutoCommit(true);
            join(connection);
            assertThat(pid(connection)).as("recycled once the transaction ended").isNotEqualTo(before);
        }
    }

    @Test
    void aCancelReachesTheNewProcess(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = proxy(pg);
                Connection connection = proxy.connect(DATABASE, TestUsers.TRUST_USER, null);
                Statement statement = connection.createStatement()) {
            assertRecycled(pg, connection);
            ServerActivity.assertACancelEndsASleep(pg, statement);
            assertThat(join(connection)).isPositive();
        }
    }

    @Test
    void aServerThatDoesNotAnswerTheNewLoginLeavesTheOldConnection(EmbeddedPostgres pg) throws Exception {
        for (TcpRelay.NewConnections failure : List.of(TcpRelay.NewConnections.CLOSE, TcpRelay.NewConnections.HANG)) {
            try (TcpRelay relay = new TcpRelay(pg.port());
                    ProxyFixture proxy = proxy(relay.port());
                    Connection connection = proxy.connect(DATABASE, TestUsers.TRUST_USER, null)) {
                int before = pid(connection);
                relay.newConnections(failure);
                long count = join(connection);
                // The pid query waited while the proxy tried to log in again (HANG: limits.connectTimeout).
                assertThat(pid(connection)).as("%s: the old process serves on", failure).isEqualTo(before);
                assertThat(join(connection)).isEqualTo(count);
                relay.newConnections(TcpRelay.NewConnections.RELAY);
                join(connection);
                assertThat(pid(connection)).as("%s: a failed login is not tried again", failure).isEqualTo(before);
            }
        }
    }

    @Test
    void anIdleConnectionIsRecycledWithoutWaitingForItsNextStatement(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = proxy(pg);
                Connection connection = proxy.connect(DATABASE, TestUsers.TRUST_USER, null)) {
            int before = pid(connection);
            join(connection);
            awaitGone(pg, before); // nothing sent through the proxy meanwhile
            assertThat(proxy.server().recycles().recycledCount()).isEqualTo(1);
            assertThat(pid(connection)).isNotEqualTo(before);
        }
    }

    @Test
    void aClientThatLeavesRightAfterItsQueryCostsNoNewLogin(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = proxy(pg)) {
            for (int i = 0; i < 3; i++) {
                try (Connection connection = proxy.connect(DATABASE, TestUsers.TRUST_USER, null)) {
                    join(connection);
                }
            }
            assertThat(proxy.awaitSessionCount(0)).isZero();
            proxy.awaitTimersDue(Duration.ofMillis(500)); // past the idle grace: a timer left behind has fired
            assertThat(proxy.server().recycles().recycledCount()).as("no login for a session that ended").isZero();
        }
    }
}

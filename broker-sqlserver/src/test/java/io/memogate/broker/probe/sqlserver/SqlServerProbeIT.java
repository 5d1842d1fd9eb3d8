package io.memogate.broker.probe.sqlserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.memogate.broker.probe.MemorySnapshot;
import io.memogate.broker.probe.ProbeException;
import io.memogate.broker.probe.ProbeSettings;
import io.memogate.broker.probe.ServerGateway;

/**
 * The probe against a real SQL Server, which this suite cannot start (no engine runs here): named by
 * {@code MEMOGATE_TEST_SQLSERVER=host:port} with {@code MEMOGATE_TEST_SQLSERVER_USER} and
 * {@code MEMOGATE_TEST_SQLSERVER_PASSWORD}, a login holding VIEW SERVER STATE (a sysadmin also lets the test
 * make a login without it). Skipped, saying so, when the variable is not set. TLS is on, the certificate not
 * checked, as a server's self-signed default needs.
 */
class SqlServerProbeIT {

    private static String host;
    private static int port;
    private static String user;
    private static String password;

    @BeforeAll
    static void serverNamed() {
        String address = System.getenv("MEMOGATE_TEST_SQLSERVER");
        assumeTrue(address != null && !address.isBlank(), "MEMOGATE_TEST_SQLSERVER=host:port (with _USER and"
                + " _PASSWORD) names no SQL Server to probe: no SQL Server runs on this machine");
        int colon = address.lastIndexOf(':');
        host = address.substring(0, colon).replace("[", "").replace("]", "");
        port = Integer.parseInt(address.substring(colon + 1));
        user = System.getenv().getOrDefault("MEMOGATE_TEST_SQLSERVER_USER", "sa");
        password = System.getenv("MEMOGATE_TEST_SQLSERVER_PASSWORD");
    }

    @Test
    void aSnapshotOfTheServerWithItsOwnGatewaysAndASessionRunningAStatement() throws Exception {
        try (Connection client = connect(user, password); SqlServerProbe probe = probe(user, password)) {
            int spid = spid(client);
            CompletableFuture<Void> waiting = CompletableFuture.runAsync(() -> run(client, "WAITFOR DELAY '00:00:10'"));
            MemorySnapshot snapshot = pollUntilActive(probe, spid);
            waiting.join();

            assertThat(snapshot.connections().ids()).contains(spid);
            assertThat(snapshot.memory().ceilingBytes().orElseThrow()).isPositive();
            assertThat(snapshot.memory().cacheBytes()).isPositive();
            assertThat(snapshot.pressure().compileWaits()).isPresent();
            assertThat(snapshot.plannerSettings()).containsKey("cpu_count");
            if (snapshot.version().number() >= 130_000_000) {
                assertThat(snapshot.serverGateways()).extracting(ServerGateway::name)
                        .anyMatch(name -> name.startsWith("Small Gateway"))
                        .anyMatch(name -> name.startsWith("Medium Gateway"))
                        .anyMatch(name -> name.startsWith("Big Gateway"));
            }
        }
    }

    @Test
    void aLoginWithoutViewServerStateFailsThePollNamingTheGrant() throws Exception {
        try (Connection admin = connect(user, password)) {
            assumeTrue(sysadmin(admin), user + " is not sysadmin: cannot make a login without VIEW SERVER STATE");
            String login = "memogate_probe_" + UUID.randomUUID().toString().substring(0, 8);
            String secret = "Pw-" + UUID.randomUUID() + "!a1";
            run(admin, "CREATE LOGIN [" + login + "] WITH PASSWORD = '" + secret + "', CHECK_POLICY = OFF");
            try (SqlServerProbe probe = probe(login, secret)) {
                assertThatThrownBy(probe::probe).isInstanceOf(ProbeException.class)
                        .hasMessageContaining("login [" + login + "] lacks VIEW SERVER STATE")
                        .hasMessageContaining("GRANT VIEW SERVER PERFORMANCE STATE TO [" + login + "]");
                run(admin, "GRANT VIEW SERVER STATE TO [" + login + "]");
                assertThat(probe.probe().memory().ceilingBytes()).isPresent();
            } finally {
                run(admin, "DROP LOGIN [" + login + "]");
            }
        }
    }

    private static MemorySnapshot pollUntilActive(SqlServerProbe probe, int spid) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(8).toNanos();
        MemorySnapshot snapshot = probe.probe();
        while (snapshot.connections().active() == 0 && System.nanoTime() < deadline) {
            snapshot = probe.probe();
        }
        assertThat(snapshot.connections().active()).as("session %d runs WAITFOR", spid).isPositive();
        return snapshot;
    }

    private static SqlServerProbe probe(String login, String secret) {
        return new SqlServerProbe(new ProbeSettings(SqlServerUrl.of(host, port, SqlServerUrl.Tls.ENCRYPT, Optional.empty()),
                login, secret, false, Duration.ofSeconds(15)), System::nanoTime);
    }

    private static Connection connect(String login, String secret) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", login);
        if (secret != null) {
            properties.setProperty("password", secret);
        }
        return DriverManager.getConnection(SqlServerUrl.of(host, port, SqlServerUrl.Tls.ENCRYPT, Optional.empty()),
                properties);
    }

    private static int spid(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet row = statement.executeQuery("SELECT @@SPID")) {
            row.next();
            return row.getInt(1);
        }
    }

    private static boolean sysadmin(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("SELECT IS_SRVROLEMEMBER('sysadmin')")) {
            row.next();
            return row.getInt(1) == 1;
        }
    }

    private static void run(Connection connection, String sql) {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }
}

package io.memogate.proxy.tds.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.proxy.admission.ImmediateAdmission;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * mssql-jdbc through the TDS wing: PRELOGIN relayed with encryption and MARS off on the server's leg, LOGIN7 and
 * the server's answers relayed unchanged, batches through, in any packet size; clients and servers that demand
 * TLS refused with a message that says so.
 */
class TdsRelayIT {

    private TdsTarget target;
    private TdsProxy proxy;

    @BeforeEach
    void start() throws Exception {
        target = TdsTarget.open();
        proxy = TdsProxy.to(target);
    }

    @AfterEach
    void stop() throws Exception {
        proxy.close();
        target.close();
    }

    private static int single(Statement statement, String sql) throws SQLException {
        try (ResultSet rows = statement.executeQuery(sql)) {
            assertThat(rows.next()).isTrue();
            return rows.getInt(1);
        }
    }

    @Test
    void aClientLogsInAndRunsBatchesThroughTheProxy() throws Exception {
        try (Connection c = proxy.connect(""); Statement s = c.createStatement()) {
            assertThat(single(s, "SELECT 42 AS n")).isEqualTo(42);
            assertThat(single(s, "SELECT 7 AS n")).isEqualTo(7);
        }
        TdsTestServer server = target.recording();
        assertThat(server.logins).containsExactly("memo@demo");
        assertThat(server.batches).containsSubsequence("SELECT 42 AS n", "SELECT 7 AS n");
        assertThat(server.preloginEncryption).as("ENCRYPT_NOT_SUP toward the server").containsExactly(2);
    }

    /** A batch of many packets at the smallest packet size reaches the server whole, and its answer comes back. */
    @Test
    void aLongBatchInSmallPacketsArrivesWhole() throws Exception {
        String sql = "SELECT 5 AS n /* " + "x".repeat(3000) + " */";
        try (Connection c = proxy.connect(";packetSize=512"); Statement s = c.createStatement()) {
            assertThat(single(s, sql)).isEqualTo(5);
        }
        assertThat(target.recording().batches).contains(sql);
    }

    @Test
    void aFailedLoginIsTheServersOwnError() throws Exception {
        target.recording();
        assertThatThrownBy(() -> DriverManager.getConnection(TdsProxy.url(proxy.port(), target), "refused", "x"))
                .isInstanceOf(SQLException.class)
                .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(18456));
        proxy.awaitSessionCount(0);
    }

    /** Told that encryption is not supported, a client that demands it stops before its login, saying why. */
    @Test
    void aClientDemandingEncryptionStopsBeforeItsLogin() throws Exception {
        assertThatThrownBy(() -> DriverManager.getConnection(TdsProxy.url(proxy.port(), target)
                + ";encrypt=true;trustServerCertificate=true", target.user, target.password))
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("not configured to support SSL");
        proxy.awaitSessionCount(0);
        assertThat(target.recording().logins).isEmpty();
    }

    @Test
    void aServerDemandingEncryptionIsRefusedSayingSo() throws Exception {
        try (TdsTestServer demanding = TdsTestServer.demandingEncryption();
             TdsProxy toIt = TdsProxy.to(demanding.port(), target, new ImmediateAdmission(),
                     1 << 20)) {
            assertThatThrownBy(() -> toIt.connect(""))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("demands encryption");
            toIt.awaitSessionCount(0);
        }
    }
}

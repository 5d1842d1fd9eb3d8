package io.memogate.proxy.tds.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.proxy.admission.ImmediateAdmission;
import io.memogate.proxy.tds.it.TdsWire.Message;
import io.memogate.proxy.tds.it.TdsWire.Tokens;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
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

    /**
     * MARS is negotiated off, not demultiplexed: a client's PRELOGIN asking for MARS reaches the server asking for
     * none, and the client is answered MARS off (the test server answers MARS as it is asked, as SQL Server does).
     */
    @Test
    void aClientAskingForMarsIsAnsweredMarsOffAndTheServerIsAskedNone() throws Exception {
        TdsTestServer server = target.recording();
        try (Socket socket = new Socket("127.0.0.1", proxy.port()); OutputStream out = socket.getOutputStream();
             InputStream in = socket.getInputStream()) {
            socket.setSoTimeout(30_000);
            TdsWire.write(out, TdsWire.PRELOGIN, preloginAskingForMars(), 4096, 0);
            Message answer = TdsWire.read(in);
            assertThat(answer.type()).isEqualTo(TdsWire.REPLY);
            assertThat(option(answer.data(), 4)).as("MARS in the proxy's answer").isEqualTo(0);
        }
        assertThat(server.preloginMars).as("MARS in the PRELOGIN the server received").containsExactly(0);
    }

    /**
     * mssql-jdbc has no MARS: its PRELOGIN carries no MARS option (which a server reads as off), directly and through
     * the proxy alike.
     */
    @Test
    void mssqlJdbcSendsNoMarsOptionDirectlyOrThroughTheProxy() throws Exception {
        TdsTestServer server = target.recording();
        try (Connection direct = DriverManager.getConnection(TdsProxy.url(server.port(), target), target.user,
                target.password); Connection c = proxy.connect("")) {
            assertThat(direct.isValid(10)).isTrue();
            assertThat(c.isValid(10)).isTrue();
        }
        assertThat(server.preloginMars).as("no MARS option (-1) in mssql-jdbc's own PRELOGIN, nor in the proxy's")
                .containsExactly(-1, -1);
    }

    /** A PRELOGIN with VERSION, ENCRYPTION (ENCRYPT_NOT_SUP) and MARS (on). */
    private static byte[] preloginAskingForMars() {
        int data = 3 * 5 + 1;
        return new Tokens().u8(0).raw(new byte[] {0, (byte) data, 0, 6})
                .u8(1).raw(new byte[] {0, (byte) (data + 6), 0, 1})
                .u8(4).raw(new byte[] {0, (byte) (data + 7), 0, 1})
                .u8(0xFF).raw(new byte[] {16, 0, 0x03, (byte) 0xE8, 0, 0}).u8(2).u8(1).bytes();
    }

    /** The first byte of PRELOGIN option {@code token} in {@code data}, -1 without it. */
    private static int option(byte[] data, int token) {
        ByteBuffer options = ByteBuffer.wrap(data);
        for (int at = 0; options.get(at) != (byte) 0xFF; at += 5) {
            if (options.get(at) == token) {
                return options.get(options.getShort(at + 1)) & 0xFF;
            }
        }
        return -1;
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

package io.memogate.proxy.tds.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.proxy.admin.ClientView;
import io.memogate.proxy.config.BackendTlsConfig;
import io.memogate.proxy.config.ServerTlsConfig;
import io.memogate.proxy.config.TlsMode;
import io.memogate.proxy.tds.it.TdsTestServer.Encryption;
import io.memogate.proxy.tds.it.TdsWire.Message;
import io.memogate.proxy.tds.it.TdsWire.Tokens;
import io.memogate.proxy.testing.Await;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS in the TDS wing, leg by leg, with mssql-jdbc in front and the test TDS server behind: each leg's encryption
 * negotiated in its own PRELOGIN, the proxy terminating TLS on both and reading the statements in between. What
 * travelled in clear is read off the wire on each leg: a relay in front of the proxy keeps what the client sent,
 * and the test server keeps what it received. Against a real SQL Server named for the tests, the tests that need
 * the server configured a certain way are skipped, and the checks of what the server received too.
 */
class TdsTlsIT {

    private static final String BATCH = "SELECT 42 AS n /* through TLS */";

    @TempDir
    static Path certificates;
    private static TdsTlsSetup tls;

    private TdsTlsSetup.Legs legs;
    private TdsTarget target;
    private TdsProxy proxy;
    private WireTap tap;

    @BeforeAll
    static void certificates() throws Exception {
        tls = TdsTlsSetup.in(certificates);
    }

    @AfterEach
    void stop() throws Exception {
        if (legs != null) {
            legs.close();
        }
    }

    private static Optional<ServerTlsConfig> listenerTls() {
        return tls.listenerTls();
    }

    private void start(Encryption server, Optional<ServerTlsConfig> listener, BackendTlsConfig backend) throws Exception {
        legs = tls.start(server, listener, backend);
        target = legs.target();
        proxy = legs.proxy();
        tap = legs.tap();
    }

    /**
     * As {@link #start}, for a test whose outcome depends on how the server is configured to encrypt: skipped,
     * saying so, against a real SQL Server named for the tests.
     */
    private void startBehindTheTestServer(Encryption server, Optional<ServerTlsConfig> listener,
                                          BackendTlsConfig backend) throws Exception {
        start(server, listener, backend);
        target.recording();
    }

    /** mssql-jdbc through the wire tap, with {@code encryption} as its connection properties say it. */
    private Connection connect(String encryption) throws SQLException {
        return DriverManager.getConnection("jdbc:sqlserver://127.0.0.1:" + tap.port() + ";databaseName="
                + target.database + ";loginTimeout=20;applicationName=memogate-tests;" + encryption, target.user,
                target.password);
    }

    private static int select42(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(BATCH)) {
            assertThat(rows.next()).isTrue();
            return rows.getInt(1);
        }
    }

    /** The statement runs, and SHOW CLIENTS says whether each leg is encrypted after the login. */
    private void runsWithBothLegsEncrypted(Connection connection, boolean encrypted) throws Exception {
        assertThat(select42(connection)).isEqualTo(42);
        ClientView session = onlySession();
        assertThat(session.clientTls()).as("the client's leg encrypted after the login").isEqualTo(encrypted);
        assertThat(session.serverTls()).as("the server's leg encrypted after the login").isEqualTo(encrypted);
    }

    private ClientView onlySession() throws Exception {
        return legs.onlySession();
    }

    @Test
    void encryptFalseHasTheLoginEncryptedOnBothLegsAndTheRestInClear() throws Exception {
        startBehindTheTestServer(Encryption.OFFERED, listenerTls(), BackendTlsConfig.of(TlsMode.PREFER));
        try (Connection connection = connect("encrypt=false")) {
            runsWithBothLegsEncrypted(connection, false);
        }
        TdsTestServer server = target.recording();
        assertThat(server.logins).containsExactly("memo@demo");
        assertThat(server.batches).contains(BATCH);
        assertThat(server.tls).containsExactly("login-only TLSv1.2");
        assertThat(server.preloginEncryption).as("the proxy offered ENCRYPT_OFF").containsExactly(0);
        assertThat(tap.sawInClear("memo")).as("the login's user name on the client's wire").isFalse();
        assertThat(server.receivedInClear("memo")).as("the login's user name on the server's wire").isFalse();
        assertThat(tap.sawInClear(BATCH)).as("the batch on the client's wire").isTrue();
        assertThat(server.receivedInClear(BATCH)).as("the batch on the server's wire").isTrue();
    }

    @Test
    void encryptTrueEncryptsEverythingOnBothLegs() throws Exception {
        start(Encryption.OFFERED, listenerTls(), BackendTlsConfig.of(TlsMode.PREFER));
        try (Connection connection = connect("encrypt=true;trustServerCertificate=true")) {
            assertThat(select42(connection)).isEqualTo(42);
            runsWithBothLegsEncrypted(connection, true);
        }
        TdsTestServer server = target.recording();
        assertThat(server.logins).containsExactly("memo@demo");
        assertThat(server.batches).containsExactly(BATCH, BATCH);
        assertThat(server.tls).containsExactly("full TLSv1.2");
        assertThat(server.preloginEncryption).as("the proxy asked for ENCRYPT_ON").containsExactly(1);
        assertThat(tap.sawInClear("memo")).isFalse();
        assertThat(tap.sawInClear(BATCH)).isFalse();
        assertThat(server.receivedInClear("memo")).isFalse();
        assertThat(server.receivedInClear(BATCH)).isFalse();
    }

    @Test
    void encryptStrictStartsWithTlsAndTheServerLegFollowsItsOwnSettings() throws Exception {
        start(Encryption.OFFERED, listenerTls(), BackendTlsConfig.of(TlsMode.PREFER));
        try (Connection connection = connect("encrypt=strict;hostNameInCertificate=localhost;serverCertificate="
                + tls.proxyCertificate.certificateFile())) {
            assertThat(select42(connection)).isEqualTo(42);
            assertThat(onlySession().clientTls()).isTrue();
        }
        TdsTestServer server = target.recording();
        assertThat(server.batches).contains(BATCH);
        assertThat(server.tls).as("a strict client wants encryption: the proxy asks the server for it")
                .containsExactly("full TLSv1.2");
        assertThat(tap.sawInClear("memo")).isFalse();
        assertThat(tap.sawInClear(BATCH)).isFalse();
    }

    @Test
    void aStrictBackendIsReachedWithTlsFirstAndTds8Alpn() throws Exception {
        startBehindTheTestServer(Encryption.STRICT, listenerTls(), BackendTlsConfig.of(TlsMode.REQUIRE).withStrict(true));
        try (Connection connection = connect("encrypt=true;trustServerCertificate=true")) {
            assertThat(select42(connection)).isEqualTo(42);
            assertThat(onlySession().serverTls()).isTrue();
        }
        TdsTestServer server = target.recording();
        assertThat(server.logins).containsExactly("memo@demo");
        assertThat(server.batches).contains(BATCH);
        assertThat(server.tls).singleElement().asString().startsWith("strict TLSv1.").endsWith(" tds/8.0");
        assertThat(server.receivedInClear("memo")).isFalse();
        assertThat(server.receivedInClear(BATCH)).isFalse();
    }

    /** A server with Force Encryption answers ENCRYPT_ON to a client's OFF: both legs are then encrypted throughout. */
    @Test
    void aServerThatRequiresEncryptionGetsItAndSoDoesTheClient() throws Exception {
        startBehindTheTestServer(Encryption.FORCED, listenerTls(), BackendTlsConfig.of(TlsMode.PREFER));
        // Told ENCRYPT_ON, the client checks the certificate unless told to trust it, as it would the server's own.
        try (Connection connection = connect("encrypt=false;trustServerCertificate=true")) {
            runsWithBothLegsEncrypted(connection, true);
        }
        TdsTestServer server = target.recording();
        assertThat(server.tls).containsExactly("full TLSv1.2");
        assertThat(tap.sawInClear(BATCH)).isFalse();
        assertThat(server.receivedInClear(BATCH)).isFalse();
    }

    @Test
    void aServerThatRequiresEncryptionBehindABackendWithTlsDisabledIsRefusedSayingWhy() throws Exception {
        startBehindTheTestServer(Encryption.FORCED, listenerTls(), BackendTlsConfig.of(TlsMode.DISABLE));
        assertThatThrownBy(() -> connect("encrypt=false;trustServerCertificate=true").close())
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("demands encryption").hasMessageContaining("tls.mode is disable");
        assertThat(target.recording().logins).as("no login reached the server").isEmpty();
    }

    /** verify-full against a server whose certificate the bundle does not sign: the client is told, by name. */
    @Test
    void aServerCertificateThatFailsVerificationIsReportedToTheClient() throws Exception {
        startBehindTheTestServer(Encryption.OFFERED, listenerTls(),
                BackendTlsConfig.verifyFull(tls.proxyCertificate.certificateFile()).withServerName("localhost"));
        assertThatThrownBy(() -> connect("encrypt=true;trustServerCertificate=true").close())
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("TLS handshake with the server of backend 'sqlserver' failed");
        assertThat(target.recording().logins).isEmpty();
    }

    /**
     * The server's TLS failing before the client's LOGIN7 came (a slow client, here one that waits for it): the
     * LOGIN7, when it comes, is answered with the reason, not with the connection closed unexplained.
     */
    @Test
    void aServerTlsFailureBeforeTheClientsLoginIsToldInTheAnswerToIt() throws Exception {
        startBehindTheTestServer(Encryption.OFFERED, listenerTls(),
                BackendTlsConfig.verifyFull(tls.proxyCertificate.certificateFile()).withServerName("localhost"));
        try (Socket socket = connectRaw(); OutputStream out = socket.getOutputStream(); InputStream in = socket.getInputStream()) {
            TdsWire.write(out, TdsWire.PRELOGIN, prelogin(2), 4096, 0); // ENCRYPT_NOT_SUP: no TLS on this leg
            assertThat(TdsWire.read(in).type()).isEqualTo(TdsWire.REPLY);
            Await.until("the proxy's handshake with the server failed", () -> target.recording().tlsFailures.get() > 0);
            // A LOGIN7 whose content does not matter: a refused login is answered before it is read.
            TdsWire.write(out, TdsWire.LOGIN7, new byte[128], 4096, 0);
            Message answer = TdsWire.read(in);
            assertThat(answer).as("an answer, not the connection closed").isNotNull();
            assertThat(WireTap.contains(answer.data(),
                    TdsWire.utf16("TLS handshake with the server of backend 'sqlserver' failed"))).isTrue();
        }
        assertThat(target.recording().logins).isEmpty();
    }

    @Test
    void aClientThatRequiresEncryptionFromAListenerWithoutCertificateIsToldItIsNotSupported() throws Exception {
        start(Encryption.OFFERED, Optional.empty(), BackendTlsConfig.of(TlsMode.PREFER));
        assertThatThrownBy(() -> connect("encrypt=true;trustServerCertificate=true").close())
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("The application requested encryption but the server is not configured to support SSL");
        assertThatThrownBy(() -> connect("encrypt=strict;hostNameInCertificate=localhost").close())
                .isInstanceOf(SQLException.class);
        assertThat(target.recording().logins).isEmpty();
        assertThat(tap.sawInClear("memo")).as("no login was sent in clear").isFalse();
    }

    /** TLS records that are not TLS, in PRELOGIN packets and at the start of a connection: closed, nothing hangs. */
    @Test
    void brokenTlsBytesCloseTheConnection() throws Exception {
        start(Encryption.OFFERED, listenerTls(), BackendTlsConfig.of(TlsMode.PREFER));
        byte[] garbage = new byte[300];
        ThreadLocalRandom.current().nextBytes(garbage);
        try (Socket socket = connectRaw(); OutputStream out = socket.getOutputStream(); InputStream in = socket.getInputStream()) {
            TdsWire.write(out, TdsWire.PRELOGIN, preloginAskingForEncryption(), 4096, 0);
            Message answer = TdsWire.read(in);
            assertThat(answer.type()).isEqualTo(TdsWire.REPLY);
            garbage[0] = 0x16; // a handshake record's type, then nonsense
            TdsWire.write(out, TdsWire.PRELOGIN, garbage, 4096, 0);
            assertThat(drainedToTheEnd(in)).as("the proxy closed the connection").isTrue();
        }
        try (Socket socket = connectRaw(); OutputStream out = socket.getOutputStream(); InputStream in = socket.getInputStream()) {
            out.write(garbage); // TLS first (TDS 8.0), then nonsense
            out.flush();
            assertThat(drainedToTheEnd(in)).isTrue();
        }
        assertThat(target.recording().logins).isEmpty();
    }

    private Socket connectRaw() throws Exception {
        Socket socket = new Socket("127.0.0.1", proxy.port());
        socket.setSoTimeout(30_000); // a hang fails the test instead of stalling it
        return socket;
    }

    /** Reads until the peer closes: true then; a timeout throws. */
    private static boolean drainedToTheEnd(InputStream in) throws Exception {
        byte[] buffer = new byte[4096];
        try {
            while (in.read(buffer) >= 0) {
                // an alert, maybe: read on to the end
            }
        } catch (java.net.SocketException reset) {
            return true;
        }
        return true;
    }

    /** A PRELOGIN with VERSION and ENCRYPTION (ENCRYPT_ON). */
    private static byte[] preloginAskingForEncryption() {
        return prelogin(1);
    }

    /** A PRELOGIN with VERSION and ENCRYPTION {@code encryption}. */
    private static byte[] prelogin(int encryption) {
        int data = 2 * 5 + 1;
        return new Tokens().u8(0).raw(new byte[] {0, (byte) data, 0, 6}).u8(1).raw(new byte[] {0, (byte) (data + 6), 0, 1})
                .u8(0xFF).raw(new byte[] {13, 0, 0, 0, 0, 0}).u8(encryption).bytes();
    }
}

package io.memogate.proxy.mysql.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.memogate.proxy.admin.ClientView;
import io.memogate.proxy.admission.StatementRequest;
import io.memogate.proxy.cli.RunningProxy;
import io.memogate.proxy.config.BackendTlsConfig;
import io.memogate.proxy.config.ListenerConfig;
import io.memogate.proxy.config.Protocol;
import io.memogate.proxy.config.ServerTlsConfig;
import io.memogate.proxy.config.TlsMode;
import io.memogate.proxy.postgres.embedded.SelfSignedCertificate;
import io.memogate.proxy.testing.ScriptedHook;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS in the MySQL wing, leg by leg: the client's terminated with the listener's certificate after its
 * SSLRequest, the server's started with the proxy's own SSLRequest as the backend's tls.mode says, and the
 * proxy reading every statement in between. Against two private MariaDBs, one started with a certificate and
 * the shared one without; with mariadb-java-client, Connector/J and the mariadb command-line client.
 * The server's {@code Ssl_cipher} of the session says whether the proxy's leg to it is encrypted.
 */
@ExtendWith(MariaDbExtension.class)
class MySqlTlsIT {

    @TempDir
    static Path certificates;
    private static SelfSignedCertificate proxyCertificate;
    private static SelfSignedCertificate serverCertificate;
    private static PrivateMariaDb tlsDb;

    @BeforeAll
    static void startTlsServer() throws Exception {
        String missing = PrivateMariaDb.missing();
        assumeTrue(missing.isEmpty(), missing);
        proxyCertificate = SelfSignedCertificate.generate(Files.createDirectory(certificates.resolve("proxy")));
        serverCertificate = SelfSignedCertificate.generate(Files.createDirectory(certificates.resolve("server")));
        tlsDb = PrivateMariaDb.start(List.of("--ssl-cert=" + serverCertificate.certificateFile(),
                "--ssl-key=" + serverCertificate.keyFile()));
    }

    @AfterAll
    static void stopTlsServer() throws Exception {
        if (tlsDb != null) {
            tlsDb.close();
        }
    }

    private static Optional<ServerTlsConfig> listenerTls() {
        return Optional.of(new ServerTlsConfig(proxyCertificate.certificateFile(), proxyCertificate.keyFile()));
    }

    @Test
    void bothLegsEncryptedAndTheProxyStillReadsTheStatements() throws Exception {
        ScriptedHook hook = new ScriptedHook();
        try (MySqlProxy proxy = MySqlProxy.withTls(tlsDb, listenerTls(), BackendTlsConfig.of(TlsMode.PREFER), hook);
             Connection connection = proxy.mariadbWithSsl("trust", PrivateMariaDb.USER, PrivateMariaDb.PASSWORD, "")) {
            assertThat(serverCipher(connection)).as("the proxy's leg to the server").isNotEmpty();
            assertThat(select42(connection)).isEqualTo(42);
            assertThat(hook.requests).extracting(StatementRequest::sql).anyMatch(sql -> sql.contains("SELECT 42"));
            ClientView view = proxy.server().clients().toCompletableFuture().get(10, TimeUnit.SECONDS).getFirst();
            assertThat(view.clientTls()).isTrue();
            assertThat(view.serverTls()).isTrue();
        }
    }

    /** The console's login, without its schema, waits for the server's TLS handshake as any login does. */
    @Test
    void theAdminConsoleWorksWithBothLegsEncrypted() throws Exception {
        ListenerConfig listener = ListenerConfig.of("127.0.0.1", 0).withProtocol(Protocol.MYSQL)
                .withTls(listenerTls().orElseThrow());
        try (RunningProxy proxy = MySqlProxy.served(tlsDb, listener, BackendTlsConfig.of(TlsMode.REQUIRE), 0,
                PrivateMariaDb.USER);
             Connection console = DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + proxy.server().port()
                     + "/memogate?sslMode=trust", PrivateMariaDb.USER, PrivateMariaDb.PASSWORD);
             Statement statement = console.createStatement();
             ResultSet tiers = statement.executeQuery("SHOW TIERS")) {
            List<String> names = new ArrayList<>();
            while (tiers.next()) {
                names.add(tiers.getString("tier"));
            }
            assertThat(names).containsExactly("small", "medium", "large");
            ClientView view = proxy.server().clients().toCompletableFuture().get(10, TimeUnit.SECONDS).getFirst();
            assertThat(view.clientTls()).isTrue();
            assertThat(view.state()).isEqualTo("console");
        }
    }

    @Test
    void connectorJRequiringTlsGetsIt() throws Exception {
        try (MySqlProxy proxy = MySqlProxy.withTls(tlsDb, listenerTls(), BackendTlsConfig.of(TlsMode.PREFER),
                new ScriptedHook());
             Connection connection = DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + proxy.port() + "/"
                     + PrivateMariaDb.DATABASE + "?sslMode=REQUIRED&allowPublicKeyRetrieval=true",
                     PrivateMariaDb.USER, PrivateMariaDb.PASSWORD)) {
            assertThat(serverCipher(connection)).isNotEmpty();
            assertThat(select42(connection)).isEqualTo(42);
            assertThat(proxy.server().clients().toCompletableFuture().get(10, TimeUnit.SECONDS).getFirst().clientTls())
                    .isTrue();
        }
    }

    @Test
    void verifyCaAcceptsTheProxysCertificateAndNoOther() throws Exception {
        try (MySqlProxy proxy = MySqlProxy.withTls(tlsDb, listenerTls(), BackendTlsConfig.of(TlsMode.PREFER),
                new ScriptedHook())) {
            try (Connection connection = proxy.mariadbWithSsl("verify-ca", PrivateMariaDb.USER, PrivateMariaDb.PASSWORD,
                    "serverSslCert=" + proxyCertificate.certificateFile())) {
                assertThat(select42(connection)).isEqualTo(42);
            }
            assertThatThrownBy(() -> proxy.mariadbWithSsl("verify-ca", PrivateMariaDb.USER, PrivateMariaDb.PASSWORD,
                    "serverSslCert=" + serverCertificate.certificateFile()).close())
                    .isInstanceOf(SQLException.class);
        }
    }

    @Test
    void theCommandLineClientVerifiesTheProxyAndRunsStatements() throws Exception {
        try (MySqlProxy proxy = MySqlProxy.withTls(tlsDb, listenerTls(), BackendTlsConfig.of(TlsMode.REQUIRE),
                new ScriptedHook())) {
            Process mariadb = new ProcessBuilder("mariadb", "--no-defaults", "--protocol=TCP", "-h", "127.0.0.1",
                    "-P", String.valueOf(proxy.port()), "-u", PrivateMariaDb.USER, "-p" + PrivateMariaDb.PASSWORD,
                    "--ssl", "--ssl-ca=" + proxyCertificate.certificateFile(), "--ssl-verify-server-cert",
                    PrivateMariaDb.DATABASE, "-e", "status; SELECT 41 + 1 AS answer")
                    .redirectErrorStream(true).start();
            assertThat(mariadb.waitFor(60, TimeUnit.SECONDS)).isTrue();
            String output = new String(mariadb.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(mariadb.exitValue()).as(output).isZero();
            assertThat(output).contains("Cipher in use is").contains("42");
        }
    }

    /** Client TLS, server plain: the client's login counts one packet more than the server's. */
    @Test
    void aTlsClientReachesAServerWithoutTls(PrivateMariaDb plainDb) throws Exception {
        try (MySqlProxy proxy = MySqlProxy.withTls(plainDb, listenerTls(), BackendTlsConfig.of(TlsMode.PREFER),
                new ScriptedHook())) {
            List<String> users = new ArrayList<>(List.of(PrivateMariaDb.USER));
            if (plainDb.hasEd25519()) {
                users.add(PrivateMariaDb.ED25519_USER); // an AuthSwitchRequest and its answer, sequence ids shifted
            }
            for (String user : users) {
                try (Connection connection = proxy.mariadbWithSsl("trust", user, password(user), "")) {
                    assertThat(serverCipher(connection)).isEmpty();
                    assertThat(select42(connection)).isEqualTo(42);
                }
            }
        }
    }

    /** Client plain, server TLS: the server's login counts one packet more than the client's. */
    @Test
    void aPlainClientReachesTheServerOverTls() throws Exception {
        try (MySqlProxy proxy = MySqlProxy.withTls(tlsDb, Optional.empty(), BackendTlsConfig.of(TlsMode.REQUIRE),
                new ScriptedHook())) {
            List<Connection> connections = new ArrayList<>(List.of(proxy.mariadb(""), proxy.connectorJ("")));
            if (tlsDb.hasEd25519()) {
                connections.add(proxy.mariadb(PrivateMariaDb.ED25519_USER, PrivateMariaDb.ED25519_PASSWORD, ""));
            }
            for (Connection connection : connections) {
                try (connection) {
                    assertThat(serverCipher(connection)).isNotEmpty();
                    assertThat(select42(connection)).isEqualTo(42);
                }
            }
        }
    }

    @Test
    void verifyFullChecksTheServersCertificate() throws Exception {
        try (MySqlProxy proxy = MySqlProxy.withTls(tlsDb, Optional.empty(),
                BackendTlsConfig.verifyFull(serverCertificate.certificateFile()), new ScriptedHook());
             Connection connection = proxy.mariadb("")) {
            assertThat(serverCipher(connection)).isNotEmpty();
        }
        try (MySqlProxy proxy = MySqlProxy.withTls(tlsDb, Optional.empty(),
                BackendTlsConfig.verifyFull(proxyCertificate.certificateFile()), new ScriptedHook())) {
            assertThatThrownBy(() -> proxy.mariadb("").close()).isInstanceOf(SQLException.class)
                    .hasMessageContaining("the TLS handshake between Memogate and backend 'maria' failed");
        }
    }

    @Test
    void requireAgainstAServerWithoutTlsRefusesTheClient(PrivateMariaDb plainDb) throws Exception {
        try (MySqlProxy proxy = MySqlProxy.withTls(plainDb, listenerTls(), BackendTlsConfig.of(TlsMode.REQUIRE),
                new ScriptedHook())) {
            assertThatThrownBy(() -> proxy.mariadbWithSsl("trust", PrivateMariaDb.USER, PrivateMariaDb.PASSWORD, "")
                    .close()).isInstanceOf(SQLException.class)
                    .hasMessageContaining("Memogate must reach backend 'maria' with TLS (its tls.mode is require)");
        }
    }

    /** Without a certificate the listener does not offer TLS: a client that requires it is refused by its driver. */
    @Test
    void aListenerWithoutTlsDoesNotOfferIt() throws Exception {
        try (MySqlProxy proxy = MySqlProxy.withTls(tlsDb, Optional.empty(), BackendTlsConfig.of(TlsMode.PREFER),
                new ScriptedHook())) {
            assertThatThrownBy(() -> proxy.mariadbWithSsl("trust", PrivateMariaDb.USER, PrivateMariaDb.PASSWORD, "")
                    .close()).isInstanceOf(SQLException.class).hasMessageContainingAll("ssl", "not");
            try (Connection connection = DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + proxy.port() + "/"
                    + PrivateMariaDb.DATABASE + "?sslMode=PREFERRED&allowPublicKeyRetrieval=true",
                    PrivateMariaDb.USER, PrivateMariaDb.PASSWORD)) {
                assertThat(select42(connection)).as("Connector/J preferring TLS goes on without it").isEqualTo(42);
            }
        }
    }

    /** A client that asks for TLS and then sends no TLS record is dropped, without an error for the proxy's log. */
    @Test
    void anSslRequestFollowedByNoTlsEndsTheConnection() throws Exception {
        try (MySqlProxy proxy = MySqlProxy.withTls(tlsDb, listenerTls(), BackendTlsConfig.of(TlsMode.PREFER),
                new ScriptedHook()); RawMySqlClient client = new RawMySqlClient(proxy.port())) {
            assertThat(client.read().isErr()).as("the greeting").isFalse();
            byte[] sslRequest = new byte[32];
            sslRequest[1] = (byte) ((1 << 9 | 1 << 11) >> 8); // CLIENT_PROTOCOL_41 | CLIENT_SSL
            client.write(1, sslRequest);
            client.writeRaw("SELECT 1 in plain text, where a TLS record should be".getBytes(StandardCharsets.US_ASCII));
            assertThat(client.closedByPeer()).isTrue();
            proxy.awaitSessionCount(0);
        }
    }

    private static String password(String user) {
        return user.equals(PrivateMariaDb.ED25519_USER) ? PrivateMariaDb.ED25519_PASSWORD : PrivateMariaDb.PASSWORD;
    }

    /** The cipher of the session's connection as the server sees it: empty when that leg is plain. */
    private static String serverCipher(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("SHOW SESSION STATUS LIKE 'Ssl_cipher'")) {
            assertThat(row.next()).isTrue();
            return row.getString(2);
        }
    }

    private static int select42(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("SELECT 42")) {
            assertThat(row.next()).isTrue();
            return row.getInt(1);
        }
    }
}

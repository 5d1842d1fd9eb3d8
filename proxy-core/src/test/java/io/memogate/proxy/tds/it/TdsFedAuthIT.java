package io.memogate.proxy.tds.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.microsoft.sqlserver.jdbc.SQLServerDataSource;
import io.memogate.proxy.admission.StatementRequest;
import io.memogate.proxy.config.BackendTdsConfig;
import io.memogate.proxy.config.BackendTlsConfig;
import io.memogate.proxy.config.TlsMode;
import io.memogate.proxy.tds.it.TdsTestServer.Encryption;
import io.memogate.proxy.testing.ScriptedHook;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An access token (Entra ID, formerly Azure AD) inside LOGIN7, through the proxy, which decides no login:
 * mssql-jdbc 13.6 given {@code setAccessToken} sends PRELOGIN's FEDAUTHREQUIRED option and asks for encryption
 * whatever {@code encrypt} says, then puts the token in LOGIN7's FeatureExt (FEDAUTH, library SECURITYTOKEN); the
 * test TDS server answers FEDAUTHREQUIRED, checks the token and acknowledges FEDAUTH in a FEATUREEXTACK after its
 * LOGINACK ({@link TestServerFedAuth}). Both legs are encrypted, the proxy terminating TLS on each. Each case runs
 * through the proxy and, as a control, with the client connected to the test server directly.
 */
class TdsFedAuthIT {

    private static final String BATCH = "SELECT 73 AS n /* with an access token */";

    @TempDir
    static Path certificates;
    private static TdsTlsSetup tls;

    private final ScriptedHook hook = new ScriptedHook();
    private TdsTarget target;
    private TdsProxy proxy;

    @BeforeAll
    static void certificates() throws Exception {
        tls = TdsTlsSetup.in(certificates);
    }

    @BeforeEach
    void start() throws Exception {
        target = TdsTarget.open(Encryption.OFFERED, tls.serverCertificate);
        proxy = TdsProxy.to(target, hook, BackendTdsConfig.DEFAULT, tls.listenerTls(), BackendTlsConfig.of(TlsMode.PREFER));
    }

    @AfterEach
    void stop() throws Exception {
        proxy.close();
        target.close();
    }

    /** mssql-jdbc with {@code token}, through the proxy or straight to the test server; {@code encrypt=false}. */
    private Connection connect(boolean throughProxy, String token) throws SQLException {
        SQLServerDataSource source = new SQLServerDataSource();
        source.setServerName("127.0.0.1");
        source.setPortNumber(throughProxy ? proxy.port() : target.port);
        source.setDatabaseName(target.database);
        source.setLoginTimeout(30);
        source.setEncrypt("false");
        source.setTrustServerCertificate(true); // the proxy's and the test server's certificates are self-signed
        source.setAccessToken(token);
        return source.getConnection();
    }

    @ParameterizedTest(name = "through the proxy: {0}")
    @ValueSource(booleans = {true, false})
    void theServerReceivesTheClientsTokenUnchangedAndStatementsRun(boolean throughProxy) throws Exception {
        TdsTestServer server = target.recording();
        try (Connection connection = connect(throughProxy, TestServerFedAuth.ACCESS_TOKEN);
                Statement statement = connection.createStatement()) {
            assertThat(TdsProxy.single(statement, BATCH)).isEqualTo(73);
            if (throughProxy) {
                assertThat(proxy.clients()).singleElement().satisfies(session -> {
                    assertThat(session.clientTls()).as("the client's leg encrypted").isTrue();
                    assertThat(session.serverTls()).as("the server's leg encrypted").isTrue();
                    assertThat(session.user()).as("LOGIN7 names no user; the token is not read").isEmpty();
                });
            }
        }
        assertThat(server.accessTokens).as("the token's bytes, as mssql-jdbc sends them (UTF-16LE)").singleElement()
                .isEqualTo(TestServerFedAuth.ACCESS_TOKEN.getBytes(StandardCharsets.UTF_16LE));
        assertThat(server.logins).containsExactly(TestServerFedAuth.PRINCIPAL + "@" + target.database);
        assertThat(server.batches).contains(BATCH);
        assertThat(server.tls).as("mssql-jdbc asked for encryption with encrypt=false").containsExactly("full TLSv1.2");
        if (throughProxy) {
            assertThat(hook.requests).extracting(StatementRequest::sql).as("admitted by the proxy").contains(BATCH);
        }
    }

    @ParameterizedTest(name = "through the proxy: {0}")
    @ValueSource(booleans = {true, false})
    void aTokenTheServerRefusesIsTheServersOwnError18456(boolean throughProxy) {
        TdsTestServer server = target.recording();
        String token = TestServerFedAuth.ACCESS_TOKEN;
        String wrong = token.substring(0, token.length() - 1) + (token.endsWith("A") ? "B" : "A"); // another signature
        assertThatThrownBy(() -> connect(throughProxy, wrong).close())
                .isInstanceOfSatisfying(SQLException.class, e -> {
                    assertThat(e.getErrorCode()).isEqualTo(18456);
                    assertThat(e.getMessage()).startsWith("Login failed for user '" + TestServerFedAuth.PRINCIPAL
                            + "'.");
                });
        assertThat(server.accessTokens).singleElement().isEqualTo(wrong.getBytes(StandardCharsets.UTF_16LE));
        assertThat(server.logins).isEmpty();
    }

    /**
     * The server's FEATUREEXTACK reaches the client: one whose FEDAUTH acknowledgement carries data (a nonce the
     * client never sent) is refused by mssql-jdbc, through the proxy as directly. (An acknowledgement that never
     * came would go unnoticed: mssql-jdbc 13.6 logs in without one.)
     */
    @ParameterizedTest(name = "through the proxy: {0}")
    @ValueSource(booleans = {true, false})
    void theServersFeatureAcknowledgementReachesTheClient(boolean throughProxy) {
        TdsTestServer server = target.recording().acknowledgingFedAuthWith(new byte[32]);
        assertThatThrownBy(() -> connect(throughProxy, TestServerFedAuth.ACCESS_TOKEN).close())
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("Federated authentication feature extension ack for ADAL and Security Token "
                        + "includes extra data");
        // the server accepted the token (mssql-jdbc tries again once before it gives up)
        assertThat(server.logins).isNotEmpty().containsOnly(TestServerFedAuth.PRINCIPAL + "@" + target.database);
    }

    /**
     * mssql-jdbc asks for encryption with a token: behind a listener without {@code tls}, which answers that it
     * supports none, the client itself refuses to go on, and no token leaves it.
     */
    @Test
    void aListenerWithoutTlsGetsNoToken() throws Exception {
        TdsTestServer server = target.recording();
        proxy.close();
        proxy = TdsProxy.to(target, hook, BackendTdsConfig.DEFAULT, Optional.empty(),
                BackendTlsConfig.of(TlsMode.PREFER));
        assertThatThrownBy(() -> connect(true, TestServerFedAuth.ACCESS_TOKEN).close())
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("The application requested encryption but the server is not configured to "
                        + "support SSL");
        assertThat(server.accessTokens).isEmpty();
    }

    /**
     * A login the server routes (as an Azure SQL gateway does) is repeated by the proxy toward the routed server
     * with the same LOGIN7, the token in it: both servers get the client's token, the statement runs on the second.
     */
    @Test
    void aRoutedTokenLoginReachesTheRoutedServerWithTheSameToken() throws Exception {
        TdsTestServer first = target.recording();
        try (TdsTestServer routed = TdsTestServer.encrypting(Encryption.OFFERED, tls.serverCertificate)) {
            first.routeTo("127.0.0.1", routed.port());
            try (Connection connection = connect(true, TestServerFedAuth.ACCESS_TOKEN);
                    Statement statement = connection.createStatement()) {
                assertThat(TdsProxy.single(statement, BATCH)).isEqualTo(73);
                assertThat(proxy.clients()).singleElement().satisfies(session -> assertThat(session.serverAddress())
                        .isEqualTo("127.0.0.1:" + routed.port() + " (routed by 127.0.0.1:" + first.port() + ")"));
            }
            byte[] token = TestServerFedAuth.ACCESS_TOKEN.getBytes(StandardCharsets.UTF_16LE);
            assertThat(first.accessTokens).singleElement().isEqualTo(token);
            assertThat(routed.accessTokens).singleElement().isEqualTo(token);
            assertThat(routed.logins).containsExactly(TestServerFedAuth.PRINCIPAL + "@" + target.database);
            assertThat(first.batches).isEmpty();
            assertThat(routed.batches).contains(BATCH);
            assertThat(routed.tls).containsExactly("full TLSv1.2");
        }
    }
}

package io.memogate.proxy.tds.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.memogate.proxy.admin.ClientView;
import io.memogate.proxy.config.BackendTlsConfig;
import io.memogate.proxy.config.TlsMode;
import io.memogate.proxy.tds.it.TdsTestServer.Encryption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * tedious 19 through a TDS listener with a certificate, the test TDS server behind it offering encryption and the
 * backend's {@code tls.mode} prefer, as in {@link TdsTlsIT}: {@code encrypt: true} encrypts both legs throughout,
 * {@code encrypt: 'strict'} (TDS 8.0) starts with TLS on the client's leg, checking the listener's certificate, and
 * {@code encrypt: false} (ENCRYPT_NOT_SUP in tedious) leaves the client's leg in clear while the proxy encrypts the
 * login toward the server. What travelled in clear is read
 * off each wire: a relay in front of the proxy keeps what tedious sent, the test server what it received.
 */
class TdsTediousTlsIT {

    private static final String BATCH = "SELECT 61 AS n /* through TLS */";

    @TempDir
    static Path certificates;
    private static TdsTlsSetup tls;

    private TdsTlsSetup.Legs legs;
    private TdsTarget target;
    private WireTap tap;
    private TediousClient tedious;

    @BeforeAll
    static void certificates() throws Exception {
        tls = TdsTlsSetup.in(certificates);
    }

    @BeforeEach
    void start() throws Exception {
        legs = tls.start(Encryption.OFFERED, tls.listenerTls(), BackendTlsConfig.of(TlsMode.PREFER));
        target = legs.target();
        tap = legs.tap();
        target.recording(); // what encryption the server offers is the test server's configuration
        tedious = TediousClient.start();
    }

    @AfterEach
    void stop() throws Exception {
        if (tedious != null) {
            tedious.close();
        }
        if (legs != null) {
            legs.close();
        }
    }

    /** Connects through the wire tap with {@code encryption}'s options, runs the batch and a parameterized request. */
    private void connectAndRun(Map<String, Object> encryption) throws Exception {
        Map<String, Object> login = TediousClient.login(tap.port(), target);
        login.putAll(encryption);
        JsonNode connected = tedious.call("connect", login);
        assertThat(connected.path("ok").asBoolean()).as("connected: %s; events: %s", connected, tedious.events).isTrue();
        JsonNode rows = tedious.call("batch", Map.of("sql", BATCH));
        assertThat(rows.path("ok").asBoolean()).as("tedious answered %s", rows).isTrue();
        assertThat(rows.get("rows").get(0).get(0).asInt()).isEqualTo(61);
        JsonNode parameterized = tedious.call("sql", Map.of("sql", "SELECT 62 AS n WHERE @n = 1",
                "params", List.of(Map.of("name", "n", "type", "Int", "value", 1))));
        assertThat(parameterized.path("ok").asBoolean()).as("tedious answered %s", parameterized).isTrue();
        assertThat(parameterized.get("rows").get(0).get(0).asInt()).isEqualTo(62);
    }

    private ClientView onlySession() throws Exception {
        return legs.onlySession();
    }

    @Test
    void encryptTrueEncryptsEverythingOnBothLegs() throws Exception {
        connectAndRun(Map.of("encrypt", true, "trustServerCertificate", true));
        ClientView session = onlySession();
        assertThat(session.clientTls()).as("the client's leg encrypted after the login").isTrue();
        assertThat(session.serverTls()).as("the server's leg encrypted after the login").isTrue();
        TdsTestServer server = target.recording();
        assertThat(server.logins).containsExactly("memo@demo");
        assertThat(server.batches).contains(BATCH);
        assertThat(server.tls).containsExactly("full TLSv1.2");
        assertThat(server.preloginEncryption).as("the proxy asked for ENCRYPT_ON").containsExactly(1);
        assertThat(tap.sawInClear("memo")).as("the login's user name on the client's wire").isFalse();
        assertThat(tap.sawInClear(BATCH)).as("the batch on the client's wire").isFalse();
        assertThat(server.receivedInClear("memo")).isFalse();
        assertThat(server.receivedInClear(BATCH)).isFalse();
    }

    /** TDS 8.0: TLS before any TDS byte, ALPN tds/8.0, tedious checking the listener's certificate against its CA. */
    @Test
    void encryptStrictStartsWithTlsCheckingTheListenersCertificate() throws Exception {
        connectAndRun(Map.of("encrypt", "strict", "serverName", "localhost",
                "ca", Files.readString(tls.proxyCertificate.certificateFile())));
        assertThat(onlySession().clientTls()).isTrue();
        TdsTestServer server = target.recording();
        assertThat(server.batches).contains(BATCH);
        assertThat(server.tls).as("a strict client wants encryption: the proxy asks the server for it")
                .containsExactly("full TLSv1.2");
        assertThat(tap.sawInClear("memo")).isFalse();
        assertThat(tap.sawInClear(BATCH)).isFalse();
    }

    /** A strict client that does not trust the listener's certificate stops before its login, saying why. */
    @Test
    void encryptStrictRefusesACertificateItDoesNotTrust() throws Exception {
        Map<String, Object> login = TediousClient.login(tap.port(), target);
        login.putAll(Map.of("encrypt", "strict", "serverName", "localhost",
                "ca", Files.readString(tls.serverCertificate.certificateFile())));
        JsonNode refused = tedious.call("connect", login);
        assertThat(refused.get("error")).as("tedious answered %s", refused).isNotNull();
        assertThat(refused.get("error").get("code").asText()).isEqualTo("ESOCKET");
        assertThat(refused.get("error").get("message").asText()).containsIgnoringCase("certificate");
        assertThat(target.recording().logins).isEmpty();
    }

    /**
     * tedious's {@code encrypt: false} says ENCRYPT_NOT_SUP (not OFF): nothing on its leg is encrypted, its login
     * included, as it asks; the proxy, told OFF-capable by the server, still sends the login to the server in TLS.
     */
    @Test
    void encryptFalseLeavesTheClientsLegInClearAndTheServersLoginEncrypted() throws Exception {
        connectAndRun(Map.of("encrypt", false));
        ClientView session = onlySession();
        assertThat(session.clientTls()).isFalse();
        assertThat(session.serverTls()).isFalse();
        TdsTestServer server = target.recording();
        assertThat(server.tls).containsExactly("login-only TLSv1.2");
        assertThat(server.preloginEncryption).as("the proxy offered ENCRYPT_OFF").containsExactly(0);
        assertThat(tap.sawInClear("memo")).as("the login's user name on the client's wire").isTrue();
        assertThat(server.receivedInClear("memo")).as("the login's user name on the server's wire").isFalse();
        assertThat(tap.sawInClear(BATCH)).as("the batch on the client's wire").isTrue();
        assertThat(server.receivedInClear(BATCH)).as("the batch on the server's wire").isTrue();
    }
}

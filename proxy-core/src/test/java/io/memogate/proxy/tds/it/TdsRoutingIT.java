package io.memogate.proxy.tds.it;

import static io.memogate.proxy.tds.it.TdsProxy.single;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.microsoft.sqlserver.jdbc.SQLServerException;
import io.memogate.proxy.admin.ClientView;
import io.memogate.proxy.config.BackendTdsConfig;
import io.memogate.proxy.config.BackendTlsConfig;
import io.memogate.proxy.config.ServerTlsConfig;
import io.memogate.proxy.config.TlsMode;
import io.memogate.proxy.postgres.embedded.SelfSignedCertificate;
import io.memogate.proxy.tds.it.TdsTestServer.Encryption;
import io.memogate.proxy.testing.ScriptedHook;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A login answered with a Routing ENVCHANGE (as an Azure SQL gateway or an availability group listener answers),
 * followed by the proxy: mssql-jdbc stays connected to the proxy and lands on the routed server, where its
 * statements run through the admission; the first server gets the login and no statement. Two test TDS servers, the
 * first told to route to the second; against a real SQL Server named for the tests these are skipped.
 */
class TdsRoutingIT {

    private static final String BATCH = "SELECT 42 AS n /* routed */";

    @TempDir
    static Path certificates;
    private static SelfSignedCertificate proxyCertificate;
    private static SelfSignedCertificate serverCertificate;
    private static SelfSignedCertificate otherCertificate;

    private final ScriptedHook hook = new ScriptedHook();
    private final ExecutorService clients = Executors.newCachedThreadPool();
    private TdsTarget target;
    private TdsTestServer routed;
    private TdsProxy proxy;

    @BeforeAll
    static void certificates() throws Exception {
        proxyCertificate = SelfSignedCertificate.generate(Files.createDirectory(certificates.resolve("proxy")));
        serverCertificate = SelfSignedCertificate.generate(Files.createDirectory(certificates.resolve("server")));
        otherCertificate = SelfSignedCertificate.generate(Files.createDirectory(certificates.resolve("other")));
    }

    @AfterEach
    void stop() throws Exception {
        clients.shutdownNow();
        if (proxy != null) {
            proxy.close();
        }
        if (routed != null) {
            routed.close();
        }
        if (target != null) {
            target.close();
        }
    }

    /** The first server, routing every login to {@link #routed} as {@code name}; a proxy to it with {@code tds}. */
    private TdsTestServer routing(String name, BackendTdsConfig tds) throws Exception {
        target = TdsTarget.open();
        TdsTestServer first = target.recording();
        routed = TdsTestServer.start();
        first.routeTo(name, routed.port());
        proxy = TdsProxy.to(target, hook, tds, Optional.empty(), BackendTlsConfig.of(TlsMode.DISABLE));
        return first;
    }


    @Test
    void aRoutedLoginLandsOnTheRoutedServerWhereAdmissionAndCancelApply() throws Exception {
        TdsTestServer first = routing("127.0.0.1\\REPLICA", BackendTdsConfig.DEFAULT);
        try (Connection c = proxy.connect(""); Statement s = c.createStatement()) {
            assertThat(single(s, BATCH)).isEqualTo(42);
            List<ClientView> sessions = proxy.clients();
            assertThat(sessions).singleElement().satisfies(session -> assertThat(session.serverAddress())
                    .isEqualTo("127.0.0.1:" + routed.port() + " (routed by 127.0.0.1:" + first.port() + ")"));

            CompletableFuture<Integer> held = CompletableFuture.supplyAsync(() -> single(s,
                    "SELECT 3 AS n " + ScriptedHook.HOLD), clients);
            proxy.awaitSessionIn("waiting for admission");
            s.cancel();
            assertThat(held).failsWithin(30, TimeUnit.SECONDS).withThrowableThat()
                    .havingRootCause().isInstanceOf(SQLServerException.class).withMessageContaining("canceled");
            assertThat(hook.withdrawn).hasSize(1);

            assertThatThrownBy(() -> s.executeQuery("SELECT 1 AS n " + ScriptedHook.REFUSE))
                    .isInstanceOfSatisfying(SQLServerException.class, e -> assertThat(e.getErrorCode()).isEqualTo(8628));
            assertThat(single(s, "SELECT 7 AS n")).isEqualTo(7);
        }
        assertThat(first.logins).as("the first server got the login").containsExactly("memo@demo");
        assertThat(first.batches).as("and no statement").isEmpty();
        assertThat(routed.logins).containsExactly("memo@demo");
        assertThat(routed.serverNames).as("the repeated LOGIN7 names the routed server, as a client's does")
                .containsExactly("127.0.0.1\\REPLICA");
        assertThat(first.serverNames).as("the client's own LOGIN7").containsExactly("127.0.0.1");
        assertThat(routed.batches).containsExactly(BATCH, "SELECT 7 AS n");
        assertThat(routed.attentions).as("the cancel of a held batch was answered by the proxy").hasValue(0);
        assertThat(hook.requests).anySatisfy(request -> assertThat(request.sql()).isEqualTo(BATCH));
    }

    /** Enhanced routing names a database too: the proxy logs in to it there, as a client does. */
    @Test
    void anEnhancedRoutingLogsInToTheDatabaseItNames() throws Exception {
        TdsTestServer first = routing("127.0.0.1", BackendTdsConfig.DEFAULT);
        first.routeTo("127.0.0.1", routed.port(), "sales_replica");
        try (Connection c = proxy.connect(""); Statement s = c.createStatement()) {
            assertThat(single(s, BATCH)).isEqualTo(42);
        }
        assertThat(first.logins).containsExactly("memo@demo");
        assertThat(routed.logins).containsExactly("memo@sales_replica");
        assertThat(routed.batches).containsExactly(BATCH);
    }

    @Test
    void aServerThatRoutesOnAgainIsALoopTheClientIsToldOf() throws Exception {
        TdsTestServer first = routing("127.0.0.1", BackendTdsConfig.DEFAULT);
        routed.routeTo("127.0.0.1", first.port());
        assertThatThrownBy(() -> proxy.connect("").close())
                .isInstanceOfSatisfying(SQLServerException.class, e -> {
                    assertThat(e.getErrorCode()).isEqualTo(18456);
                    assertThat(e.getMessage()).contains("routes it on to", "follows one routing");
                });
        proxy.awaitSessionCount(0);
        assertThat(first.logins).hasSize(1);
        assertThat(routed.logins).hasSize(1);
    }

    @Test
    void anUnreachableRoutedServerIsReportedNotWaitedFor() throws Exception {
        routing("127.0.0.1", BackendTdsConfig.DEFAULT);
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        target.recording().routeTo("127.0.0.1\\GONE", closedPort);
        assertThatThrownBy(() -> proxy.connect("").close())
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("cannot reach the server that backend 'sqlserver' routed the login to, "
                        + "'127.0.0.1\\GONE' at 127.0.0.1:" + closedPort);
        proxy.awaitSessionCount(0);
    }

    @Test
    void withFollowRoutingOffTheClientIsToldWhereToPointTheBackend() throws Exception {
        routing("127.0.0.1\\REPLICA", new BackendTdsConfig(false));
        assertThatThrownBy(() -> proxy.connect("").close())
                .isInstanceOfSatisfying(SQLServerException.class, e -> {
                    assertThat(e.getErrorCode()).isEqualTo(18456);
                    assertThat(e.getMessage()).contains("routes this login to '127.0.0.1\\REPLICA' (127.0.0.1:"
                            + routed.port() + ")", "tds.followRouting is false", "point the backend at that server");
                });
        proxy.awaitSessionCount(0);
        assertThat(routed.connections).as("nothing went around the proxy's back").hasValue(0);
    }

    /** TLS toward both servers as the backend's tls says, the routed one's certificate checked under verify-full. */
    @Test
    void theRoutedServersLegIsEncryptedAndVerifiedAsTheBackendSays() throws Exception {
        TdsTestServer first = encryptedRouting(Encryption.OFFERED, serverCertificate);
        try (Connection c = connectEncrypted(); Statement s = c.createStatement()) {
            assertThat(single(s, BATCH)).isEqualTo(42);
            ClientView session = proxy.clients().getFirst();
            assertThat(session.serverTls()).as("the routed server's leg encrypted").isTrue();
            assertThat(session.clientTls()).isTrue();
        }
        assertThat(first.tls).containsExactly("full TLSv1.2");
        assertThat(routed.tls).containsExactly("full TLSv1.2");
        assertThat(routed.batches).containsExactly(BATCH);
        assertThat(routed.receivedInClear("memo")).as("the login's user name on the routed server's wire").isFalse();
        assertThat(routed.receivedInClear(BATCH)).as("the batch on the routed server's wire").isFalse();
        assertThat(first.batches).isEmpty();
    }

    /** A strict backend (TDS 8.0): the routed server is reached with TLS first too. */
    @Test
    void aStrictBackendReachesTheRoutedServerWithTlsFirst() throws Exception {
        TdsTestServer first = encryptedRouting(Encryption.STRICT, serverCertificate);
        try (Connection c = connectEncrypted(); Statement s = c.createStatement()) {
            assertThat(single(s, BATCH)).isEqualTo(42);
        }
        assertThat(routed.tls).singleElement().asString().startsWith("strict TLSv1.").endsWith(" tds/8.0");
        assertThat(routed.batches).containsExactly(BATCH);
        assertThat(routed.receivedInClear(BATCH)).isFalse();
        assertThat(first.batches).isEmpty();
    }

    @Test
    void aRoutedServerWhoseCertificateFailsVerificationIsReported() throws Exception {
        TdsTestServer first = encryptedRouting(Encryption.OFFERED, otherCertificate);
        assertThatThrownBy(() -> connectEncrypted().close())
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("TLS handshake with the server of backend 'sqlserver' failed");
        proxy.awaitSessionCount(0);
        assertThat(first.logins).isNotEmpty(); // mssql-jdbc tries again after this error, within its login timeout
        assertThat(routed.logins).as("no login went to a server that failed verification").isEmpty();
    }

    /**
     * Two test servers encrypting as {@code encryption}, the first (with the server certificate) routing every login
     * to the second (with {@code routedCertificate}) as {@code localhost}; a proxy to the first whose backend is
     * strict (TDS 8.0) toward strict servers, else verify-full trusting the server certificate alone.
     */
    private TdsTestServer encryptedRouting(Encryption encryption, SelfSignedCertificate routedCertificate)
            throws Exception {
        target = TdsTarget.open(encryption, serverCertificate);
        TdsTestServer first = target.recording();
        routed = TdsTestServer.encrypting(encryption, routedCertificate);
        first.routeTo("localhost", routed.port());
        BackendTlsConfig backendTls = encryption == Encryption.STRICT
                ? BackendTlsConfig.of(TlsMode.REQUIRE).withStrict(true)
                : BackendTlsConfig.verifyFull(serverCertificate.certificateFile()).withServerName("localhost");
        proxy = TdsProxy.to(target, hook, BackendTdsConfig.DEFAULT, listenerTls(), backendTls);
        return first;
    }

    private static Optional<ServerTlsConfig> listenerTls() {
        return Optional.of(new ServerTlsConfig(proxyCertificate.certificateFile(), proxyCertificate.keyFile()));
    }

    private Connection connectEncrypted() throws SQLException {
        return DriverManager.getConnection("jdbc:sqlserver://127.0.0.1:" + proxy.port() + ";databaseName="
                + target.database + ";loginTimeout=20;applicationName=memogate-tests;encrypt=true;"
                + "trustServerCertificate=true", target.user, target.password);
    }
}

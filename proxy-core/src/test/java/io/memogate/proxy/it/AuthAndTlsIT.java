package io.memogate.proxy.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.proxy.config.ServerTlsConfig;
import io.memogate.proxy.config.TlsMode;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.SelfSignedCertificate;
import io.memogate.proxy.postgres.embedded.SharedPostgres;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgresExtension;
import io.memogate.proxy.postgres.embedded.TestUsers;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.security.KeyStore;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.util.PSQLException;

/**
 * Authentication is relayed, never decided by the proxy: every method the server uses works
 * unchanged, a client the server refuses is refused. TLS terminates at the proxy for clients and is
 * negotiated separately with the server.
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class AuthAndTlsIT {

    @Test
    void everyPasswordMethodWorksAndAWrongPasswordIsRefused(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).start()) {
            assertUser(proxy.connect("demo", TestUsers.SCRAM_USER, TestUsers.SCRAM_PASSWORD), TestUsers.SCRAM_USER);
            assertUser(proxy.connect("demo", TestUsers.MD5_USER, TestUsers.MD5_PASSWORD), TestUsers.MD5_USER);
            assertUser(proxy.connect("demo", TestUsers.PLAIN_USER, TestUsers.PLAIN_PASSWORD), TestUsers.PLAIN_USER);
            assertUser(proxy.connect("demo", TestUsers.TRUST_USER, null), TestUsers.TRUST_USER);

            assertThatThrownBy(() -> proxy.connect("demo", TestUsers.SCRAM_USER, "wrong"))
                    .isInstanceOfSatisfying(PSQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("28P01"));
            assertThatThrownBy(() -> proxy.connect("demo", TestUsers.MD5_USER, "wrong"))
                    .isInstanceOfSatisfying(PSQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("28P01"));
            assertThat(proxy.awaitSessionCount(0)).as("refused sessions are gone").isZero();
        }
    }

    @Test
    void clientTlsTerminatesAtTheProxyWithItsCertificate(EmbeddedPostgres pg, @TempDir Path dir) throws Exception {
        SelfSignedCertificate proxyCertificate = SelfSignedCertificate.generate(dir);
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port())
                .listenerTls(new ServerTlsConfig(proxyCertificate.certificateFile(), proxyCertificate.keyFile()))
                .start()) {
            // verify-full against the proxy's own certificate proves the client's TLS ends at the proxy.
            try (Connection connection = proxy.connect("demo", TestUsers.SCRAM_USER, TestUsers.SCRAM_PASSWORD,
                    "sslmode", "verify-full", "sslrootcert", proxyCertificate.certificateFile().toString())) {
                assertThat(backendUsesTls(connection)).as("backend leg (tls.mode disable)").isFalse();
            }
            // Without TLS configured the proxy still serves plain clients on the same port.
            assertUser(proxy.connect("demo", TestUsers.MD5_USER, TestUsers.MD5_PASSWORD), TestUsers.MD5_USER);
        }
    }

    @Test
    void directTlsNamingPostgresByAlpnIsServedAndWithoutItIsRefusedInPostgresTerms(EmbeddedPostgres pg,
                                                                                    @TempDir Path dir) throws Exception {
        SelfSignedCertificate proxyCertificate = SelfSignedCertificate.generate(dir);
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port())
                .listenerTls(new ServerTlsConfig(proxyCertificate.certificateFile(), proxyCertificate.keyFile()))
                .start()) {
            // pgjdbc's sslNegotiation=direct (libpq's sslnegotiation=direct): TLS at once, no SSLRequest.
            try (Connection direct = proxy.connect("demo", TestUsers.SCRAM_USER, TestUsers.SCRAM_PASSWORD,
                    "sslmode", "verify-full", "sslrootcert", proxyCertificate.certificateFile().toString(),
                    "sslNegotiation", "direct");
                    Statement statement = direct.createStatement()) {
                try (ResultSet rows = statement.executeQuery("select current_user")) {
                    rows.next();
                    assertThat(rows.getString(1)).isEqualTo(TestUsers.SCRAM_USER);
                }
                // The driver's cancel connection follows the same settings, and reaches the session.
                CompletableFuture<Void> cancelled = CompletableFuture.runAsync(() -> {
                    try {
                        ServerActivity.awaitRunning(pg, "demo", "select pg_sleep(30)");
                        statement.cancel();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                assertThatThrownBy(() -> statement.execute("select pg_sleep(30)"))
                        .isInstanceOfSatisfying(PSQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("57014"));
                cancelled.get(10, TimeUnit.SECONDS);
            }

            SSLContext trusting = trusting(proxyCertificate);
            try (RawPgClient client = RawPgClient.directTls(proxy.port(), trusting, "postgresql")) {
                // An SSLRequest inside it is answered 'N' (no TLS within TLS), as PostgreSQL answers it.
                client.sendRaw(new byte[] {0, 0, 0, 8, 4, (byte) 0xd2, 0x16, 0x2f});
                assertThat(client.input().readByte()).isEqualTo((byte) 'N');
                assertThat(client.startup(TestUsers.TRUST_USER, "demo").getLast().type()).isEqualTo('Z');
                client.query("select current_user");
                assertThat(client.readUntilReady()).extracting(RawPgClient.Message::type).contains('D');
            }
            // PostgreSQL 17 refuses a direct TLS client that does not name the protocol by ALPN: it closes
            // the connection, with a line in its log only.
            try (RawPgClient client = RawPgClient.directTls(proxy.port(), trusting)) {
                client.sendRaw(new byte[] {0, 0, 0, 8, 0, 3, 0, 0}); // a StartupMessage of protocol 3.0
                assertThat(client.readOrClosed()).as("closed without a byte").isEmpty();
            }
            // One that names only another protocol fails in the handshake (no_application_protocol).
            try (RawPgClient client = RawPgClient.directTls(proxy.port(), trusting, "http/1.1")) {
                assertThatThrownBy(() -> client.startup(TestUsers.TRUST_USER, "demo")).isInstanceOf(SSLException.class);
            }
            // Asking first with an SSLRequest still works, with or without ALPN (pgjdbc sends none there).
            assertUser(proxy.connect("demo", TestUsers.MD5_USER, TestUsers.MD5_PASSWORD, "sslmode", "require"),
                    TestUsers.MD5_USER);
            assertThat(proxy.awaitSessionCount(0)).as("every session ended").isZero();
        }
    }

    @Test
    void directTlsToAListenerWithoutTlsIsClosedAndPlainClientsAreStillServed(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).start()) {
            assertThatThrownBy(() -> proxy.connect("demo", TestUsers.SCRAM_USER, TestUsers.SCRAM_PASSWORD,
                    "sslmode", "require", "sslNegotiation", "direct"))
                    .isInstanceOf(PSQLException.class);
            // Nothing the client's TLS stack would take for a broken handshake: no plain-text error, just the end.
            try (RawPgClient client = new RawPgClient(proxy.port())) {
                client.sendRaw(clientHello());
                assertThat(client.input().read()).as("first byte the proxy sent").isEqualTo(-1);
            }
            assertUser(proxy.connect("demo", TestUsers.SCRAM_USER, TestUsers.SCRAM_PASSWORD), TestUsers.SCRAM_USER);
            assertThat(proxy.awaitSessionCount(0)).as("the refused connection left nothing behind").isZero();
        }
    }

    @Test
    void clientWithoutTlsIsToldNoWhenTheListenerHasNone(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).start()) {
            assertThatThrownBy(() -> proxy.connect("demo", TestUsers.SCRAM_USER, TestUsers.SCRAM_PASSWORD,
                    "sslmode", "require"))
                    .isInstanceOf(PSQLException.class)
                    .hasMessageContaining("does not support SSL");
            // prefer falls back to plain text, as against a server without TLS.
            assertUser(proxy.connect("demo", TestUsers.SCRAM_USER, TestUsers.SCRAM_PASSWORD, "sslmode", "prefer"),
                    TestUsers.SCRAM_USER);
        }
    }

    @Test
    void backendTlsModes(SharedPostgres shared) throws Exception {
        EmbeddedPostgres pg = shared.server();
        for (TlsMode mode : new TlsMode[] {TlsMode.PREFER, TlsMode.REQUIRE}) {
            try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).backendTls(mode).start();
                    Connection connection = proxy.connect("demo", TestUsers.SCRAM_USER, TestUsers.SCRAM_PASSWORD)) {
                assertThat(backendUsesTls(connection)).as("tls.mode %s", mode).isTrue();
            }
        }
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).backendTls(TlsMode.DISABLE).start();
                Connection connection = proxy.connect("demo", TestUsers.SCRAM_USER, TestUsers.SCRAM_PASSWORD)) {
            assertThat(backendUsesTls(connection)).isFalse();
        }
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port())
                .backendVerifyFull(shared.certificate().certificateFile(), "localhost").start();
                Connection connection = proxy.connect("demo", TestUsers.SCRAM_USER, TestUsers.SCRAM_PASSWORD)) {
            assertThat(backendUsesTls(connection)).isTrue();
        }
    }

    @Test
    void verifyFullRefusesAServerItCannotTrust(EmbeddedPostgres pg, @TempDir Path dir) throws Exception {
        SelfSignedCertificate stranger = SelfSignedCertificate.generate(dir);
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port())
                .backendVerifyFull(stranger.certificateFile(), "localhost").start()) {
            assertThatThrownBy(() -> proxy.connect("demo", TestUsers.SCRAM_USER, TestUsers.SCRAM_PASSWORD))
                    .isInstanceOfSatisfying(PSQLException.class, e -> {
                        assertThat(e.getSQLState()).isEqualTo("08001");
                        assertThat(e.getMessage()).contains("TLS handshake failed");
                    });
        }
    }

    @Test
    void scramWithTlsOnlyTowardsTheServerDropsChannelBinding(SharedPostgres shared) throws Exception {
        EmbeddedPostgres pg = shared.server();
        // The server offers SCRAM-SHA-256-PLUS on its TLS leg; a plain client must not be offered it.
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).backendTls(TlsMode.REQUIRE).start()) {
            assertUser(proxy.connect("demo", TestUsers.SCRAM_USER, TestUsers.SCRAM_PASSWORD, "channelBinding", "prefer"),
                    TestUsers.SCRAM_USER);
            assertThatThrownBy(() -> proxy.connect("demo", TestUsers.SCRAM_USER, TestUsers.SCRAM_PASSWORD,
                    "channelBinding", "require"))
                    .as("channel binding cannot be had through a TLS-terminating proxy")
                    .isInstanceOf(PSQLException.class);
        }
    }

    @Test
    void scramWithTlsOnlyTowardsTheClientWorks(EmbeddedPostgres pg, @TempDir Path dir) throws Exception {
        SelfSignedCertificate proxyCertificate = SelfSignedCertificate.generate(dir);
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port())
                .listenerTls(new ServerTlsConfig(proxyCertificate.certificateFile(), proxyCertificate.keyFile()))
                .backendTls(TlsMode.DISABLE).start()) {
            assertUser(proxy.connect("demo", TestUsers.SCRAM_USER, TestUsers.SCRAM_PASSWORD, "sslmode", "require"),
                    TestUsers.SCRAM_USER);
        }
    }

    /** The first flight of a JDK TLS client, as it goes on the wire. */
    private static byte[] clientHello() throws Exception {
        SSLEngine engine = SSLContext.getDefault().createSSLEngine("localhost", 6432);
        engine.setUseClientMode(true);
        ByteBuffer hello = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
        engine.wrap(ByteBuffer.allocate(0), hello);
        return Arrays.copyOf(hello.array(), hello.position());
    }

    /** A client TLS context that trusts {@code certificate} alone. */
    private static SSLContext trusting(SelfSignedCertificate certificate) throws Exception {
        KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
        trusted.load(null, null);
        trusted.setCertificateEntry("proxy", certificate.certificate());
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }

    private static boolean backendUsesTls(Connection connection) throws Exception {
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("select ssl from pg_stat_ssl where pid = pg_backend_pid()")) {
            rows.next();
            return rows.getBoolean(1);
        }
    }

    private static void assertUser(Connection connection, String expected) throws Exception {
        try (connection; Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("select current_user")) {
            rows.next();
            assertThat(rows.getString(1)).isEqualTo(expected);
        }
    }
}

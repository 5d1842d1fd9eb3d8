package io.memogate.proxy.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.proxy.config.ServerTlsConfig;
import io.memogate.proxy.config.TlsMode;
import io.memogate.proxy.embedded.EmbeddedPostgres;
import io.memogate.proxy.embedded.SelfSignedCertificate;
import io.memogate.proxy.embedded.SharedPostgres;
import io.memogate.proxy.embedded.EmbeddedPostgresExtension;
import io.memogate.proxy.embedded.TestUsers;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
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

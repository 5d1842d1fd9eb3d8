package io.memogate.proxy.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.proxy.config.ServerTlsConfig;
import io.memogate.proxy.it.ClientProgram.Result;
import io.memogate.proxy.it.RawPgClient.Message;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgresExtension;
import io.memogate.proxy.postgres.embedded.SelfSignedCertificate;
import io.memogate.proxy.postgres.embedded.TestUsers;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.postgresql.util.PSQLException;

/**
 * A client past limits.maxClientConnections (here 1) is told so in PostgreSQL's order: its SSLRequest is
 * answered first, as any client's, and the FATAL 53300 answers its StartupMessage, so that a client that
 * asks for TLS first (psql, libpq's sslmode=prefer) reads why, not an error where it expected 'S' or 'N'.
 * It never gets a server connection, and one that never sends its startup packet is closed at the login
 * timeout.
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class TooManyClientsIT {

    private static final String TOO_MANY = "sorry, too many clients already";

    @TempDir
    Path dir;

    private ProxyFixture fullProxy(EmbeddedPostgres pg) throws Exception {
        SelfSignedCertificate certificate = SelfSignedCertificate.generate(dir);
        return ProxyFixture.to(pg.host(), pg.port()).maxClientConnections(1).loginTimeout(Duration.ofSeconds(2))
                .listenerTls(new ServerTlsConfig(certificate.certificateFile(), certificate.keyFile())).start();
    }

    @ParameterizedTest
    @ValueSource(strings = {"disable", "prefer", "require"})
    void pgjdbcReadsWhy(String sslmode, EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = fullProxy(pg);
                Connection first = proxy.connect("demo", TestUsers.TRUST_USER, null)) {
            assertThatThrownBy(() -> proxy.connect("demo", TestUsers.TRUST_USER, null, "sslmode", sslmode))
                    .isInstanceOfSatisfying(PSQLException.class, e -> {
                        assertThat(e.getSQLState()).isEqualTo("53300");
                        assertThat(e.getServerErrorMessage().getMessage()).isEqualTo(TOO_MANY);
                    });
            assertThat(first.isValid(2)).isTrue();
            assertThat(proxy.server().serverConnectionCount()).as("the first client's only").isEqualTo(1);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"disable", "prefer"})
    void psqlReadsWhy(String sslmode, EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = fullProxy(pg);
                Connection first = proxy.connect("demo", TestUsers.TRUST_USER, null)) {
            Result psql = ClientProgram.run(dir, Map.of("PGSSLMODE", sslmode), List.of("psql", "-X", "-h", "127.0.0.1",
                    "-p", String.valueOf(proxy.port()), "-U", TestUsers.TRUST_USER, "-d", "demo", "-c", "select 1"));
            assertThat(psql.exitCode()).as(psql.output()).isEqualTo(2);
            assertThat(psql.output()).contains("FATAL:  " + TOO_MANY).doesNotContain("SSL");
            assertThat(first.isValid(2)).isTrue();
            assertThat(proxy.server().serverConnectionCount()).isEqualTo(1);
        }
    }

    @Test
    void aClientOverTheLimitThatSendsNoStartupPacketIsClosedAtTheLoginTimeout(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).maxClientConnections(1)
                .loginTimeout(Duration.ofMillis(500)).start();
                Connection first = proxy.connect("demo", TestUsers.TRUST_USER, null);
                RawPgClient silent = new RawPgClient(proxy.port());
                RawPgClient asking = new RawPgClient(proxy.port())) {
            asking.setReadTimeout(10_000);
            asking.sendRaw(new byte[] {0, 0, 0, 8, 4, (byte) 0xd2, 0x16, 0x2f}); // SSLRequest
            assertThat(asking.input().readByte()).as("answered as any client").isEqualTo((byte) 'N');
            assertThat(silent.closedByPeer()).as("a client that says nothing").isTrue();
            assertThat(asking.closedByPeer()).as("one that sent only its SSLRequest").isTrue();
            assertThat(first.isValid(2)).isTrue();
            assertThat(proxy.server().serverConnectionCount()).isEqualTo(1);
        }
    }

    @Test
    void aClientOverTheLimitGetsItsFatalAfterItsStartupPacket(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).maxClientConnections(1).start();
                Connection first = proxy.connect("demo", TestUsers.TRUST_USER, null);
                RawPgClient client = new RawPgClient(proxy.port())) {
            client.setReadTimeout(10_000);
            client.sendRaw(new byte[] {0, 0, 0, 8, 4, (byte) 0xd2, 0x16, 0x2f}); // SSLRequest
            assertThat(client.input().readByte()).isEqualTo((byte) 'N');
            Message refusal = client.startup(TestUsers.TRUST_USER, "demo").getLast();
            assertThat(refusal.fields().get('S')).isEqualTo("FATAL");
            assertThat(refusal.sqlState()).isEqualTo("53300");
            assertThat(refusal.fields().get('M')).isEqualTo(TOO_MANY);
            assertThat(refusal.fields().get('D')).contains("limits.maxClientConnections");
            assertThat(client.closedByPeer()).isTrue();
            assertThat(proxy.server().serverConnectionCount()).isEqualTo(1);
        }
    }

    /** As PostgreSQL serves a cancel request whatever its own limit: the client that holds the slot can cancel. */
    @Test
    void aCancelReachesTheStatementOfTheClientThatHoldsTheLastSlot(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).maxClientConnections(1).start();
                Connection first = proxy.connect("demo", TestUsers.TRUST_USER, null);
                Statement statement = first.createStatement()) {
            ServerActivity.assertACancelEndsASleep(pg, statement);
        }
    }
}

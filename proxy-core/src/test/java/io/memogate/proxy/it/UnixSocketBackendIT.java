package io.memogate.proxy.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.memogate.proxy.config.NetworkTransport;
import io.memogate.proxy.config.TlsMode;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgresExtension;
import io.memogate.proxy.postgres.embedded.TestUsers;
import io.memogate.proxy.pg.session.PasswordlessLogins;
import io.netty.channel.uring.IoUring;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.postgresql.util.PSQLException;
import org.slf4j.LoggerFactory;

/**
 * A backend whose host is the directory of the server's Unix socket (libpq's convention): the proxy
 * reaches the server without TCP, and everything the pass-through contract checks holds over that leg
 * too. The embedded server's socket has the same pg_hba rules as its TCP address, so every password
 * method is really exercised over the socket.
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class UnixSocketBackendIT extends PassthroughContract {

    private static EmbeddedPostgres pg;

    @BeforeAll
    static void server(EmbeddedPostgres server) {
        pg = server;
    }

    @Override
    protected Backend backend() {
        return new Backend(pg.socketDirectory().toString(), pg.port(), "demo", TestUsers.SCRAM_USER,
                TestUsers.SCRAM_PASSWORD);
    }

    @Test
    void theServerSeesALocalConnection() throws Exception {
        try (Connection connection = connect(); Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("select inet_server_addr() is null, client_addr is null"
                     + " from pg_stat_activity where pid = pg_backend_pid()")) {
            assertThat(row.next()).isTrue();
            assertThat(row.getBoolean(1)).as("no server address: a Unix socket").isTrue();
            assertThat(row.getBoolean(2)).as("no client address: a Unix socket").isTrue();
        }
    }

    @Test
    void everyPasswordMethodWorksOverTheSocketAndAWrongPasswordIsRefused() throws Exception {
        assertUser(proxy.connect("demo", TestUsers.MD5_USER, TestUsers.MD5_PASSWORD), TestUsers.MD5_USER);
        assertUser(proxy.connect("demo", TestUsers.PLAIN_USER, TestUsers.PLAIN_PASSWORD), TestUsers.PLAIN_USER);
        assertUser(proxy.connect("demo", TestUsers.TRUST_USER, null), TestUsers.TRUST_USER);
        assertThatThrownBy(() -> proxy.connect("demo", TestUsers.SCRAM_USER, "wrong"))
                .isInstanceOfSatisfying(PSQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("28P01"));
        assertThat(proxy.awaitSessionCount(0)).as("refused sessions are gone").isZero();
    }

    /**
     * A role the server lets in over the socket without a password is let in the same way for any client
     * of the proxy: the operator is told once per role, and not about roles that had to give a password.
     */
    @Test
    void aRoleLetInWithoutAPasswordIsWarnedAboutOnce() throws Exception {
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        Logger logins = (Logger) LoggerFactory.getLogger(PasswordlessLogins.class);
        log.start();
        logins.addAppender(log);
        try {
            assertUser(proxy.connect("demo", TestUsers.TRUST_USER, null), TestUsers.TRUST_USER);
            assertUser(proxy.connect("demo", TestUsers.TRUST_USER, null), TestUsers.TRUST_USER);
            assertUser(proxy.connect("demo", TestUsers.SCRAM_USER, TestUsers.SCRAM_PASSWORD), TestUsers.SCRAM_USER);
        } finally {
            logins.detachAppender(log);
        }
        assertThat(log.list).hasSize(1).first().satisfies(event -> {
            assertThat(event.getLevel()).isEqualTo(Level.WARN);
            assertThat(event.getFormattedMessage()).contains("let role \"" + TestUsers.TRUST_USER + "\" in without"
                    + " a password (pg_hba trust or peer, on local)").contains(pg.socketDirectory().toString());
        });
    }

    /** tls.mode prefer, the default, means plain over a Unix socket, as it does in libpq. */
    @Test
    void preferConnectsWithoutTls() throws Exception {
        try (ProxyFixture preferring = ProxyFixture.to(pg.socketDirectory().toString(), pg.port())
                .backendTls(TlsMode.PREFER).start()) {
            assertUser(preferring.connect("demo", TestUsers.SCRAM_USER, TestUsers.SCRAM_PASSWORD),
                    TestUsers.SCRAM_USER);
        }
    }

    @ParameterizedTest
    @EnumSource(value = NetworkTransport.class, names = {"NIO", "IO_URING"})
    void everyTransportReachesTheSocket(NetworkTransport transport) throws Exception {
        assumeTrue(transport != NetworkTransport.IO_URING || IoUring.isAvailable(),
                () -> "io_uring cannot be used here: " + IoUring.unavailabilityCause());
        try (ProxyFixture other = ProxyFixture.to(pg.socketDirectory().toString(), pg.port()).transport(transport)
                .start()) {
            assertUser(other.connect("demo", TestUsers.SCRAM_USER, TestUsers.SCRAM_PASSWORD), TestUsers.SCRAM_USER);
        }
    }

    @Test
    void aMissingSocketIsNamedWithTheCause(@TempDir Path empty) throws Exception {
        try (ProxyFixture nowhere = ProxyFixture.to(empty.toString(), 5432).start()) {
            assertThatThrownBy(() -> nowhere.connect("demo", "memogate", "memogate"))
                    .isInstanceOfSatisfying(PSQLException.class, e -> {
                        assertThat(e.getSQLState()).isEqualTo("08001");
                        assertThat(e.getServerErrorMessage().getMessage()).isEqualTo("Memogate could not connect to "
                                + "backend \"test\" at " + empty.resolve(".s.PGSQL.5432")
                                + ": no such file or directory");
                        assertThat(e.getServerErrorMessage().getHint())
                                .contains("running locally and accepting connections on that socket")
                                .contains("backends[0].host must be one of its unix_socket_directories");
                    });
            assertThat(nowhere.awaitSessionCount(0)).isZero();
        }
    }

    private static void assertUser(Connection connection, String user) throws SQLException {
        try (connection; Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("select current_user")) {
            assertThat(row.next()).isTrue();
            assertThat(row.getString(1)).isEqualTo(user);
        }
    }
}

package io.memogate.proxy.mysql.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.proxy.admission.ImmediateAdmission;
import io.memogate.proxy.config.LimitsConfig;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The relay contract against a private MariaDB, and what only MariaDB or this machine has: ed25519 logins, the
 * server's thread id as the client sees it, the server ending a connection, a server that is down, and the
 * mariadb command-line client.
 */
@ExtendWith(MariaDbExtension.class)
class MySqlRelayIT extends MySqlRelayContract {

    private static PrivateMariaDb db;

    @BeforeAll
    static void server(PrivateMariaDb server) {
        db = server;
    }

    @Override
    protected String serverHost() {
        return "127.0.0.1";
    }

    @Override
    protected int serverPort() {
        return db.port();
    }

    @Test
    void ed25519LoginsAreRelayed(PrivateMariaDb db) throws Exception {
        Assumptions.assumeTrue(db.hasEd25519(), "MariaDB's auth_ed25519 plugin is not installed");
        try (Connection connection = proxy.mariadb(PrivateMariaDb.ED25519_USER, PrivateMariaDb.ED25519_PASSWORD, "");
             ResultSet who = connection.createStatement().executeQuery("SELECT CURRENT_USER()")) {
            assertThat(who.next()).isTrue();
            assertThat(who.getString(1)).startsWith(PrivateMariaDb.ED25519_USER + "@");
        }
        assertThatThrownBy(() -> proxy.mariadb(PrivateMariaDb.ED25519_USER, "wrong", "").close())
                .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1045));
    }

    /** The thread id the server gave the connection is the one the client sees: KILL names it. */
    @Test
    void theClientSeesItsServerThreadId(PrivateMariaDb db) throws Exception {
        try (Connection connection = proxy.mariadb("");
             ResultSet id = connection.createStatement().executeQuery("SELECT CONNECTION_ID()")) {
            assertThat(id.next()).isTrue();
            long threadId = id.getLong(1);
            assertThat(proxy.server().clients().toCompletableFuture().get(10, TimeUnit.SECONDS))
                    .anySatisfy(client -> assertThat(client.serverPid()).isEqualTo((int) threadId));
            assertThat(db.asRoot("SELECT USER FROM information_schema.PROCESSLIST WHERE ID = " + threadId).strip())
                    .isEqualTo(PrivateMariaDb.USER);
        }
    }

    /** The server ending a connection ends its session; a client's COM_QUIT ends its own. */
    @Test
    void aSessionEndsWithItsServerConnectionOrItsClientsQuit(PrivateMariaDb db) throws Exception {
        try (Connection connection = proxy.mariadb("")) {
            long threadId;
            try (ResultSet id = connection.createStatement().executeQuery("SELECT CONNECTION_ID()")) {
                id.next();
                threadId = id.getLong(1);
            }
            db.asRoot("KILL " + threadId);
            proxy.awaitSessionCount(0);
            assertThatThrownBy(() -> connection.createStatement().executeQuery("SELECT 1"))
                    .isInstanceOf(SQLException.class);
        }
        Connection quitting = proxy.connectorJ("");
        proxy.awaitSessionCount(1);
        quitting.close();
        proxy.awaitSessionCount(0);
    }

    /** A server that cannot be reached: the client reads an ERR where the greeting would be, naming it. */
    @Test
    void aBackendThatIsDownIsAnErrInPlaceOfTheGreeting() throws Exception {
        int nothing;
        try (ServerSocket socket = new ServerSocket(0)) {
            nothing = socket.getLocalPort();
        }
        try (MySqlProxy down = MySqlProxy.toPort(nothing, new ImmediateAdmission(),
                LimitsConfig.DEFAULTS.maxMessageBytes());
             RawMySqlClient client = new RawMySqlClient(down.port())) {
            RawMySqlClient.Packet err = client.read();
            assertThat(err.isErr()).isTrue();
            assertThat(err.sequenceId()).isZero();
            assertThat(err.message()).contains("cannot connect to backend 'maria' at 127.0.0.1:" + nothing);
            assertThat(client.closedByPeer()).isTrue();
        }
    }

    @Test
    void theCommandLineClientRunsStatements() throws Exception {
        Process mariadb = new ProcessBuilder("mariadb", "--no-defaults", "--protocol=TCP", "-h", "127.0.0.1",
                "-P", String.valueOf(proxy.port()), "-u", PrivateMariaDb.USER, "-p" + PrivateMariaDb.PASSWORD,
                "--skip-ssl", "--batch", "--skip-column-names", PrivateMariaDb.DATABASE,
                "-e", "SELECT 41 + 1; SELECT 'x' UNION ALL SELECT 'y'").redirectErrorStream(true).start();
        assertThat(mariadb.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String output = new String(mariadb.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(mariadb.exitValue()).as(output).isZero();
        assertThat(output.lines().toList()).containsExactly("42", "x", "y");
    }
}

package io.memogate.proxy.mysql.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mysql.cj.jdbc.JdbcConnection;
import io.memogate.proxy.admission.ImmediateAdmission;
import io.memogate.proxy.config.LimitsConfig;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The MySQL wing as a relay, with admission letting everything through: the two Java drivers and the mariadb
 * command-line client log in with a password (the server decides), query, prepare and execute, read several
 * results and rows larger than one packet, through the proxy against a private MariaDB.
 */
@ExtendWith(MariaDbExtension.class)
class MySqlRelayIT {

    private MySqlProxy proxy;

    @BeforeEach
    void start(PrivateMariaDb db) throws Exception {
        proxy = MySqlProxy.to(db);
    }

    @AfterEach
    void stop() {
        proxy.close();
    }

    @Test
    void bothDriversQueryThroughTheProxy() throws Exception {
        for (Connection connection : List.of(proxy.mariadb(""), proxy.connectorJ(""))) {
            try (connection; Statement statement = connection.createStatement()) {
                statement.execute("CREATE TABLE IF NOT EXISTS relay_t (id INT PRIMARY KEY, name VARCHAR(20))");
                statement.execute("DELETE FROM relay_t");
                assertThat(statement.executeUpdate("INSERT INTO relay_t VALUES (1, 'one'), (2, 'two'), (3, NULL)"))
                        .isEqualTo(3);
                List<String> names = new ArrayList<>();
                try (ResultSet rows = statement.executeQuery("SELECT name FROM relay_t ORDER BY id")) {
                    while (rows.next()) {
                        names.add(rows.getString(1));
                    }
                }
                assertThat(names).containsExactly("one", "two", null);
            }
        }
    }

    @Test
    void serverPreparedStatementsRunWithTheirParameters() throws Exception {
        for (Connection connection : List.of(proxy.mariadb("useServerPrepStmts=true"),
                proxy.connectorJ("useServerPrepStmts=true&cachePrepStmts=true"))) {
            try (connection; PreparedStatement select = connection.prepareStatement("SELECT ? * 2, ?")) {
                for (int i = 1; i <= 3; i++) {
                    select.setInt(1, i);
                    select.setString(2, "p" + i);
                    try (ResultSet row = select.executeQuery()) {
                        assertThat(row.next()).isTrue();
                        assertThat(row.getInt(1)).isEqualTo(i * 2);
                        assertThat(row.getString(2)).isEqualTo("p" + i);
                        assertThat(row.next()).isFalse();
                    }
                }
            }
        }
    }

    @Test
    void aTextOfSeveralStatementsAnswersEachResult() throws Exception {
        for (Connection connection : List.of(proxy.mariadb("allowMultiQueries=true"),
                proxy.connectorJ("allowMultiQueries=true"))) {
            try (connection; Statement statement = connection.createStatement()) {
                assertThat(statement.execute("SELECT 1; DO 0; SELECT 'b', 'c'")).isTrue();
                try (ResultSet first = statement.getResultSet()) {
                    assertThat(first.next()).isTrue();
                    assertThat(first.getInt(1)).isEqualTo(1);
                }
                assertThat(statement.getMoreResults()).isFalse();
                assertThat(statement.getUpdateCount()).isZero();
                assertThat(statement.getMoreResults()).isTrue();
                try (ResultSet third = statement.getResultSet()) {
                    assertThat(third.next()).isTrue();
                    assertThat(third.getString(2)).isEqualTo("c");
                }
                try (ResultSet after = statement.executeQuery("SELECT 7")) {
                    assertThat(after.next()).isTrue();
                    assertThat(after.getInt(1)).isEqualTo(7);
                }
            }
        }
    }

    /** 20 MiB each way: a row and a parameter of more than one 16 MiB packet, split and joined byte for byte. */
    @Test
    void rowsAndParametersLargerThanOnePacketArriveWhole() throws Exception {
        byte[] big = new byte[20 * 1024 * 1024 + 17];
        for (int i = 0; i < big.length; i++) {
            big[i] = (byte) ('a' + i % 26);
        }
        for (Connection connection : List.of(proxy.mariadb("useServerPrepStmts=true"), proxy.connectorJ(""))) {
            try (connection; Statement statement = connection.createStatement()) {
                statement.execute("CREATE TABLE IF NOT EXISTS big_t (id INT PRIMARY KEY, body LONGBLOB)");
                statement.execute("DELETE FROM big_t");
                try (PreparedStatement insert = connection.prepareStatement("INSERT INTO big_t VALUES (1, ?)")) {
                    insert.setBytes(1, big);
                    insert.executeUpdate();
                }
                try (ResultSet row = statement.executeQuery("SELECT body, LENGTH(body) FROM big_t")) {
                    assertThat(row.next()).isTrue();
                    assertThat(row.getLong(2)).isEqualTo(big.length);
                    assertThat(Arrays.equals(row.getBytes(1), big)).as("the 20 MiB value read back").isTrue();
                }
                String text = new String(big, 0, 17 * 1024 * 1024, StandardCharsets.US_ASCII);
                try (ResultSet echo = statement.executeQuery("SELECT LENGTH('" + text + "')")) {
                    assertThat(echo.next()).isTrue();
                    assertThat(echo.getLong(1)).isEqualTo(text.length());
                }
            }
        }
    }

    @Test
    void theServerDecidesTheLoginAndAWrongPasswordGetsItsError() {
        assertThatThrownBy(() -> proxy.mariadb(PrivateMariaDb.USER, "wrong", "").close())
                .isInstanceOfSatisfying(SQLException.class, e -> {
                    assertThat(e.getErrorCode()).isEqualTo(1045);
                    assertThat(e.getMessage()).contains("Access denied for user 'memo'");
                });
        assertThatThrownBy(() -> proxy.connectorJ(PrivateMariaDb.USER, "wrong", "").close())
                .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1045));
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

    @Test
    void batchesRunWhole() throws Exception {
        for (Connection connection : List.of(proxy.mariadb("useServerPrepStmts=true"),
                proxy.connectorJ("useServerPrepStmts=true"))) {
            try (connection; Statement statement = connection.createStatement()) {
                statement.execute("CREATE TABLE IF NOT EXISTS batch_t (id INT PRIMARY KEY)");
                statement.execute("DELETE FROM batch_t");
                try (PreparedStatement insert = connection.prepareStatement("INSERT INTO batch_t VALUES (?)")) {
                    for (int i = 0; i < 50; i++) {
                        insert.setInt(1, i);
                        insert.addBatch();
                    }
                    assertThat(insert.executeBatch()).hasSize(50);
                }
                try (ResultSet count = statement.executeQuery("SELECT COUNT(*), SUM(id) FROM batch_t")) {
                    assertThat(count.next()).isTrue();
                    assertThat(count.getInt(1)).isEqualTo(50);
                    assertThat(count.getInt(2)).isEqualTo(49 * 50 / 2);
                }
            }
        }
    }

    /** COM_CHANGE_USER's authentication is relayed both ways; the statements prepared before are forgotten. */
    @Test
    void changeUserLogsInAgainThroughTheProxy() throws Exception {
        try (Connection connection = proxy.connectorJ("useServerPrepStmts=true")) {
            connection.unwrap(JdbcConnection.class).changeUser(PrivateMariaDb.USER,
                    PrivateMariaDb.PASSWORD);
            try (PreparedStatement select = connection.prepareStatement("SELECT CURRENT_USER(), ?")) {
                select.setInt(1, 3);
                try (ResultSet row = select.executeQuery()) {
                    assertThat(row.next()).isTrue();
                    assertThat(row.getString(1)).startsWith(PrivateMariaDb.USER + "@");
                    assertThat(row.getInt(2)).isEqualTo(3);
                }
            }
            assertThatThrownBy(() -> connection.unwrap(JdbcConnection.class)
                    .changeUser(PrivateMariaDb.USER, "wrong")).isInstanceOf(SQLException.class);
        }
    }

    @Test
    void aResetConnectionKeepsTheConnectionUsable() throws Exception {
        try (Connection connection = proxy.mariadb("useServerPrepStmts=true&useResetConnection=true")) {
            try (PreparedStatement select = connection.prepareStatement("SELECT ?")) {
                select.setInt(1, 5);
                try (ResultSet row = select.executeQuery()) {
                    assertThat(row.next()).isTrue();
                }
            }
            connection.unwrap(org.mariadb.jdbc.Connection.class).reset();
            try (PreparedStatement again = connection.prepareStatement("SELECT ? + 1")) {
                again.setInt(1, 5);
                try (ResultSet row = again.executeQuery()) {
                    assertThat(row.next()).isTrue();
                    assertThat(row.getInt(1)).isEqualTo(6);
                }
            }
        }
    }
}

package io.memogate.proxy.mysql.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mysql.cj.jdbc.JdbcConnection;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The MySQL wing as a relay, with admission letting everything through, whatever the server behind it: the two
 * Java drivers log in with a password (the server decides), query, prepare and execute, read several results and
 * rows larger than one packet. Each server the wing is tested against is a subclass saying where it listens; its
 * login is {@link PrivateMariaDb#USER} / {@link PrivateMariaDb#PASSWORD} on the database {@link PrivateMariaDb#DATABASE}.
 */
abstract class MySqlRelayContract {

    protected MySqlProxy proxy;

    /** The server's host, as the proxy reaches it. */
    protected abstract String serverHost();

    /** The server's port. */
    protected abstract int serverPort();

    @BeforeEach
    void startProxy() throws Exception {
        proxy = MySqlProxy.toServer(serverHost(), serverPort());
    }

    @AfterEach
    void stopProxy() {
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

package io.memogate.proxy.mysql.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.memogate.proxy.cli.RunningProxy;
import io.memogate.proxy.it.ClientProgram;
import io.memogate.proxy.it.ClientProgram.Result;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The admin console through a {@code protocol: mysql} listener, served as {@code memogate run} serves it in front
 * of the private MariaDB: the login relayed to the server, which decides it; then SHOW TIERS, SHOW BROKER and
 * SHOW HELP answered by the proxy as MySQL result sets, to mariadb-java-client and to the mariadb command-line
 * client; a user not in admin.users refused with 1044, a bad command answered with an ERR on a connection that
 * goes on, a wrong password refused by the server itself.
 */
@ExtendWith(MariaDbExtension.class)
class MySqlConsoleIT {

    private static final Path MARIADB = Path.of("/usr/bin/mariadb");
    private static final String OUTSIDER = "memo_outsider";
    private static final String OUTSIDER_PASSWORD = "outsider-secret";

    private static RunningProxy proxy;

    @BeforeAll
    static void start(PrivateMariaDb db) throws Exception {
        db.asRoot("CREATE USER IF NOT EXISTS " + OUTSIDER + "@'%' IDENTIFIED BY '" + OUTSIDER_PASSWORD + "'");
        proxy = MySqlProxy.served(db, 10, PrivateMariaDb.USER);
    }

    @AfterAll
    static void stop() {
        if (proxy != null) {
            proxy.close();
        }
    }

    @Test
    void theDriverReadsTheTiersTheBrokerAndTheHelpOfTheMariaDbServer() throws Exception {
        try (Connection console = console(PrivateMariaDb.USER, PrivateMariaDb.PASSWORD, "")) {
            List<Map<String, String>> tiers = rows(console, "SHOW TIERS");
            assertThat(tiers).extracting(r -> r.get("tier")).containsExactly("small", "medium", "large");
            assertThat(tiers).extracting(r -> r.get("server")).containsOnly("maria");
            assertThat(tiers.get(2).get("fraction")).as("LARGE has no fraction: NULL").isNull();

            List<Map<String, String>> broker = rows(console, "SHOW BROKER");
            assertThat(broker).isNotEmpty();
            assertThat(broker.toString()).contains("maria");

            assertThat(rows(console, "SHOW HELP")).extracting(r -> r.get("command")).contains("SHOW TIERS", "RELOAD");
            assertThat(rows(console, "show clients;")).anySatisfy(client -> assertThat(client)
                    .containsEntry("database", "memogate").containsEntry("state", "console").containsEntry("backend", null)
                    .containsEntry("server_pid", null));
            assertThat(console.isValid(5)).as("COM_PING").isTrue();
        }
    }

    @Test
    void connectorJReadsTheTiersToo() throws Exception {
        try (Connection console = DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + port() + "/memogate"
                + "?sslMode=DISABLED&allowPublicKeyRetrieval=true&connectTimeout=10000&socketTimeout=60000",
                PrivateMariaDb.USER, PrivateMariaDb.PASSWORD)) {
            assertThat(rows(console, "SHOW TIERS")).extracting(r -> r.get("tier")).containsExactly("small", "medium", "large");
        }
    }

    @Test
    void aBadCommandIsAnErrorAndTheConsoleGoesOn() throws Exception {
        try (Connection console = console(PrivateMariaDb.USER, PrivateMariaDb.PASSWORD, "")) {
            assertThatThrownBy(() -> rows(console, "SHOW NOTHING_OF_THAT_NAME"))
                    .isInstanceOfSatisfying(SQLException.class, e -> {
                        assertThat(e.getErrorCode()).isEqualTo(1064);
                        assertThat(e.getSQLState()).isEqualTo("42000");
                    });
            assertThat(rows(console, "SHOW TIERS")).hasSize(3);
        }
    }

    /**
     * A client without CLIENT_DEPRECATE_EOF gets EOF packets after the columns and after the rows, the sequence
     * ids counting on from its command's; what the console does not serve is an ERR, and it goes on.
     */
    @Test
    void packetByPacketTheConsoleAnswersAsAServerWithoutDeprecateEof() throws Exception {
        try (RawMySqlClient client = new RawMySqlClient(port())) {
            assertThat(client.login(PrivateMariaDb.USER, PrivateMariaDb.PASSWORD, "memogate").payload()[0])
                    .as("the server's OK").isEqualTo((byte) 0x00);
            client.query("SHOW TIERS");
            RawMySqlClient.Packet count = client.read();
            assertThat(count.sequenceId()).isEqualTo(1);
            int columns = count.payload()[0];
            assertThat(columns).isEqualTo(13);
            for (int i = 0; i < columns; i++) {
                RawMySqlClient.Packet column = client.read();
                assertThat(column.sequenceId()).isEqualTo(2 + i);
                assertThat(new String(column.payload(), StandardCharsets.UTF_8)).startsWith("\u0003def");
            }
            assertThat(client.read().payload()).as("EOF after the columns").hasSize(5).startsWith((byte) 0xFE);
            for (int i = 0; i < 3; i++) {
                assertThat(new String(client.read().payload(), StandardCharsets.UTF_8)).contains("maria");
            }
            RawMySqlClient.Packet end = client.read();
            assertThat(end.payload()).as("EOF after the rows").hasSize(5).startsWith((byte) 0xFE);
            assertThat(end.sequenceId()).isEqualTo(1 + 1 + columns + 1 + 3);

            client.command(0x16, "SHOW TIERS".getBytes(StandardCharsets.UTF_8)); // COM_STMT_PREPARE
            assertThat(errorCode(client.read())).isEqualTo(1235);
            client.command(0x02, PrivateMariaDb.DATABASE.getBytes(StandardCharsets.UTF_8)); // COM_INIT_DB
            assertThat(errorCode(client.read())).isEqualTo(1235);
            client.command(0x0E, new byte[0]); // COM_PING
            assertThat(client.read().payload()[0]).isEqualTo((byte) 0x00);
            client.command(0x01, new byte[0]); // COM_QUIT
            assertThat(client.read().payload()).as("closed").isNull();
        }
    }

    private static int errorCode(RawMySqlClient.Packet packet) {
        assertThat(packet.payload()[0]).as("ERR").isEqualTo((byte) 0xFF);
        assertThat(new String(packet.payload(), 3, 6, StandardCharsets.US_ASCII)).isEqualTo("#42000");
        return packet.payload()[1] & 0xFF | (packet.payload()[2] & 0xFF) << 8;
    }

    @Test
    void aUserNotInAdminUsersIsDeniedTheConsoleWith1044() {
        assertThatThrownBy(() -> console(OUTSIDER, OUTSIDER_PASSWORD, "").close())
                .isInstanceOfSatisfying(SQLException.class, e -> {
                    assertThat(e.getErrorCode()).isEqualTo(1044);
                    assertThat(e.getMessage()).contains("admin.users");
                });
    }

    @Test
    void aWrongPasswordIsRefusedByTheServer() {
        assertThatThrownBy(() -> console(PrivateMariaDb.USER, "not-the-password", "").close())
                .isInstanceOfSatisfying(SQLException.class, e -> {
                    assertThat(e.getErrorCode()).as(e.getMessage()).isEqualTo(1045); // ER_ACCESS_DENIED_ERROR, the server's
                    assertThat(e.getMessage()).doesNotContain("admin.users");
                });
    }

    @Test
    void theMariadbClientPrintsTheTiers(@TempDir Path dir) throws Exception {
        assumeTrue(Files.isExecutable(MARIADB), MARIADB + " is not installed (Debian: apt-get install mariadb-client)");
        Result tiers = mariadb(dir, PrivateMariaDb.USER, PrivateMariaDb.PASSWORD, "SHOW TIERS; SHOW BROKER; SHOW HELP");
        assertThat(tiers.exitCode()).as(tiers.output()).isZero();
        assertThat(tiers.output()).contains("maria\tsmall").contains("maria\tlarge").contains("SHOW TIERS");

        Result bad = mariadb(dir, PrivateMariaDb.USER, PrivateMariaDb.PASSWORD, "SHOW NOTHING_OF_THAT_NAME");
        assertThat(bad.exitCode()).isNotZero();
        assertThat(bad.output()).contains("ERROR 1064 (42000)");

        Result outsider = mariadb(dir, OUTSIDER, OUTSIDER_PASSWORD, "SHOW TIERS");
        assertThat(outsider.exitCode()).isNotZero();
        assertThat(outsider.output()).contains("ERROR 1044 (42000)");
    }

    private static Result mariadb(Path dir, String user, String password, String commands) throws Exception {
        return ClientProgram.run(dir, Map.of(), List.of(MARIADB.toString(), "--no-defaults", "--protocol=tcp",
                "--host=127.0.0.1", "--port=" + port(), "--user=" + user, "--password=" + password, "--skip-ssl",
                "--batch", "--database=memogate", "--execute=" + commands));
    }

    private static int port() {
        return proxy.server().port();
    }

    private static Connection console(String user, String password, String options) throws SQLException {
        return DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + port() + "/memogate?sslMode=disable"
                + "&connectTimeout=10000&socketTimeout=60000" + options, user, password);
    }

    private static List<Map<String, String>> rows(Connection connection, String command) throws SQLException {
        List<Map<String, String>> rows = new ArrayList<>();
        try (Statement statement = connection.createStatement(); ResultSet result = statement.executeQuery(command)) {
            int columns = result.getMetaData().getColumnCount();
            while (result.next()) {
                Map<String, String> row = new LinkedHashMap<>();
                for (int i = 1; i <= columns; i++) {
                    row.put(result.getMetaData().getColumnLabel(i), result.getString(i));
                }
                rows.add(row);
            }
        }
        return rows;
    }
}

package io.memogate.proxy.mysql.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.proxy.admission.ImmediateAdmission;
import io.memogate.proxy.config.LimitsConfig;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

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
        String output = runMariadbClient("-e", "SELECT 41 + 1; SELECT 'x' UNION ALL SELECT 'y'");
        assertThat(output.lines().toList()).containsExactly("42", "x", "y");
    }

    /** The mariadb client through the proxy with {@code arguments}; its output, once it exited with 0. */
    private String runMariadbClient(String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of("mariadb", "--no-defaults", "--protocol=TCP", "-h",
                "127.0.0.1", "-P", String.valueOf(proxy.port()), "-u", PrivateMariaDb.USER,
                "-p" + PrivateMariaDb.PASSWORD, "--skip-ssl", "--batch", "--skip-column-names"));
        command.addAll(List.of(arguments));
        command.add(PrivateMariaDb.DATABASE);
        Process mariadb = new ProcessBuilder(command).redirectErrorStream(true).start();
        assertThat(mariadb.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String output = new String(mariadb.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(mariadb.exitValue()).as(output).isZero();
        return output;
    }

    /**
     * LOAD DATA LOCAL INFILE: the server asks for the file in the middle of its answer, and the client's packets up
     * to an empty one are the file, relayed as they come (here 300,000 rows, 4.6 MB, in many packets); then the
     * session goes on. A file the client cannot send ends with the server's error, and the session goes on too.
     */
    @Test
    void loadDataLocalInfileSendsTheClientsFileThroughTheProxy(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("rows.csv");
        StringBuilder rows = new StringBuilder();
        for (int i = 1; i <= 300_000; i++) {
            rows.append(i).append(",name ").append(i).append('\n');
        }
        Files.writeString(file, rows);
        String load = "LOAD DATA LOCAL INFILE '" + file + "' INTO TABLE infile_t FIELDS TERMINATED BY ','";
        for (Connection connection : List.of(proxy.mariadb("allowLocalInfile=true"),
                proxy.connectorJ("allowLoadLocalInfile=true"))) {
            try (connection; Statement statement = connection.createStatement()) {
                statement.execute("CREATE TABLE IF NOT EXISTS infile_t (id INT PRIMARY KEY, name VARCHAR(20))");
                statement.execute("DELETE FROM infile_t");
                assertThat(statement.executeUpdate(load)).isEqualTo(300_000);
                try (ResultSet sum = statement.executeQuery("SELECT COUNT(*), SUM(id), MAX(name) FROM infile_t")) {
                    assertThat(sum.next()).isTrue();
                    assertThat(sum.getLong(1)).isEqualTo(300_000);
                    assertThat(sum.getLong(2)).isEqualTo(300_000L * 300_001 / 2);
                    assertThat(sum.getString(3)).isEqualTo("name 99999");
                }
                assertThatThrownBy(() -> statement.executeUpdate(load.replace(file.toString(),
                        dir.resolve("missing.csv").toString()))).isInstanceOf(SQLException.class);
                try (ResultSet after = statement.executeQuery("SELECT 6 * 7")) {
                    assertThat(after.next()).isTrue();
                    assertThat(after.getInt(1)).isEqualTo(42);
                }
            }
        }
    }

    @Test
    void theCommandLineClientLoadsALocalFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("rows.tsv");
        Files.writeString(file, "1\tone\n2\ttwo\n3\tthree\n");
        String output = runMariadbClient("--local-infile=1", "-e",
                "CREATE TABLE IF NOT EXISTS cli_infile_t (id INT PRIMARY KEY, name VARCHAR(20)); "
                + "DELETE FROM cli_infile_t; LOAD DATA LOCAL INFILE '" + file + "' INTO TABLE cli_infile_t; "
                + "SELECT GROUP_CONCAT(name ORDER BY id) FROM cli_infile_t");
        assertThat(output.lines().toList()).containsExactly("one,two,three");
    }
}

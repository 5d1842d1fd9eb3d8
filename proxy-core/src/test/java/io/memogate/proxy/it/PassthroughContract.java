package io.memogate.proxy.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.proxy.config.NetworkTransport;
import java.io.ByteArrayOutputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.postgresql.copy.CopyManager;
import org.postgresql.util.PSQLException;

/**
 * What a client must see through the proxy exactly as it would see it from the server. Each server
 * version or flavour (embedded PostgreSQL 18, the machine's PostgreSQL 15, the postgres:18 image)
 * runs these same bodies by extending this class, and so does each network transport other than the default.
 */
abstract class PassthroughContract {

    /** The backend to put the proxy in front of, and who may log in to it. */
    protected record Backend(String host, int port, String database, String user, String password) {}

    protected abstract Backend backend();

    protected ProxyFixture proxy;

    /** The network.transport the proxy is started with; the same bodies must pass on each. */
    protected NetworkTransport transport() {
        return NetworkTransport.AUTO;
    }

    @BeforeEach
    void startProxy() throws Exception {
        Backend backend = backend();
        proxy = ProxyFixture.to(backend.host(), backend.port()).transport(transport()).start();
    }

    @AfterEach
    void stopProxy() {
        proxy.close();
    }

    protected Connection connect(String... properties) throws SQLException {
        Backend backend = backend();
        return proxy.connect(backend.database(), backend.user(), backend.password(), properties);
    }

    @Test
    void simpleProtocolQueries() throws Exception {
        try (Connection connection = connect("preferQueryMode", "simple");
                Statement statement = connection.createStatement()) {
            ResultSet rows = statement.executeQuery("select g, 'row ' || g from generate_series(1, 5) g");
            List<String> seen = new ArrayList<>();
            while (rows.next()) {
                seen.add(rows.getInt(1) + ":" + rows.getString(2));
            }
            assertThat(seen).containsExactly("1:row 1", "2:row 2", "3:row 3", "4:row 4", "5:row 5");
            // Several statements in one Query message.
            assertThat(statement.execute("select 1; select 2")).isTrue();
            assertThat(statement.getMoreResults()).isTrue();
            assertThat(statement.getResultSet().next()).isTrue();
            assertThat(statement.getResultSet().getInt(1)).isEqualTo(2);
        }
    }

    @Test
    void extendedProtocolWithNamedAndUnnamedStatements() throws Exception {
        // prepareThreshold=1: pgjdbc switches to a named server-side statement on first reuse.
        try (Connection connection = connect("prepareThreshold", "1");
                PreparedStatement named = connection.prepareStatement("select ?::int * 2, ?::text")) {
            for (int i = 1; i <= 5; i++) {
                named.setInt(1, i);
                named.setString(2, "v" + i);
                try (ResultSet rows = named.executeQuery()) {
                    assertThat(rows.next()).isTrue();
                    assertThat(rows.getInt(1)).isEqualTo(i * 2);
                    assertThat(rows.getString(2)).isEqualTo("v" + i);
                }
            }
            try (PreparedStatement unnamed = connection.prepareStatement("select count(*) from generate_series(1, ?)")) {
                unnamed.setInt(1, 42);
                try (ResultSet rows = unnamed.executeQuery()) {
                    rows.next();
                    assertThat(rows.getInt(1)).isEqualTo(42);
                }
            }
        }
    }

    @Test
    void portalsFetchInChunksInsideATransaction() throws Exception {
        try (Connection connection = connect()) {
            connection.setAutoCommit(false);
            try (PreparedStatement statement = connection.prepareStatement("select g from generate_series(1, 1000) g")) {
                statement.setFetchSize(100); // a named portal, read with Execute(100) ten times
                long sum = 0;
                try (ResultSet rows = statement.executeQuery()) {
                    while (rows.next()) {
                        sum += rows.getInt(1);
                    }
                }
                assertThat(sum).isEqualTo(500_500);
            }
            connection.commit();
        }
    }

    @Test
    void pipelinedBatchArrivesCompleteAndInOrder() throws Exception {
        try (Connection connection = connect()) {
            try (Statement statement = connection.createStatement()) {
                statement.execute("create temporary table batch_target (seq serial, value int)");
            }
            try (PreparedStatement insert = connection.prepareStatement("insert into batch_target (value) values (?)")) {
                for (int i = 0; i < 2000; i++) {
                    insert.setInt(1, i);
                    insert.addBatch();
                }
                int[] counts = insert.executeBatch();
                assertThat(counts).hasSize(2000).containsOnly(1);
            }
            try (Statement statement = connection.createStatement();
                    ResultSet rows = statement.executeQuery("select count(*), bool_and(seq = value + 1) from batch_target")) {
                rows.next();
                assertThat(rows.getInt(1)).isEqualTo(2000);
                assertThat(rows.getBoolean(2)).as("rows inserted in the order sent").isTrue();
            }
        }
    }

    @Test
    void copyInAndOut() throws Exception {
        try (Connection connection = connect()) {
            try (Statement statement = connection.createStatement()) {
                statement.execute("create temporary table copy_target (id int, name text)");
            }
            CopyManager copy = connection.unwrap(PGConnection.class).getCopyAPI();
            StringBuilder input = new StringBuilder();
            for (int i = 0; i < 10_000; i++) {
                input.append(i).append('\t').append("name ").append(i).append('\n');
            }
            long copied = copy.copyIn("copy copy_target from stdin", new StringReader(input.toString()));
            assertThat(copied).isEqualTo(10_000);

            ByteArrayOutputStream output = new ByteArrayOutputStream();
            long exported = copy.copyOut("copy (select * from copy_target order by id) to stdout", output);
            assertThat(exported).isEqualTo(10_000);
            assertThat(output.toString(StandardCharsets.UTF_8)).isEqualTo(input.toString());
        }
    }

    @Test
    void aFailedCopyLeavesTheSessionUsable() throws Exception {
        try (Connection connection = connect()) {
            try (Statement statement = connection.createStatement()) {
                statement.execute("create temporary table copy_strict (id int)");
            }
            CopyManager copy = connection.unwrap(PGConnection.class).getCopyAPI();
            assertThatThrownBy(() -> copy.copyIn("copy copy_strict from stdin", new StringReader("1\nnot a number\n")))
                    .isInstanceOf(PSQLException.class)
                    .hasMessageContaining("invalid input syntax");
            try (Statement statement = connection.createStatement();
                    ResultSet rows = statement.executeQuery("select count(*) from copy_strict")) {
                rows.next();
                assertThat(rows.getInt(1)).isZero();
            }
        }
    }

    @Test
    void cancelReachesTheRightServerSession() throws Exception {
        try (Connection connection = connect(); Connection observer = connect();
                Statement statement = connection.createStatement()) {
            int pid;
            try (ResultSet rows = statement.executeQuery("select pg_backend_pid()")) {
                rows.next();
                pid = rows.getInt(1);
            }
            CompletableFuture<Void> cancelled = CompletableFuture.runAsync(() -> {
                try {
                    ServerActivity.awaitRunning(observer, pid, "select pg_sleep(30)");
                    statement.cancel();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            assertThatThrownBy(() -> statement.execute("select pg_sleep(30)"))
                    .isInstanceOfSatisfying(PSQLException.class,
                            e -> assertThat(e.getSQLState()).isEqualTo("57014"));
            cancelled.get(10, TimeUnit.SECONDS);
            try (ResultSet rows = statement.executeQuery("select 'still usable'")) {
                rows.next();
                assertThat(rows.getString(1)).isEqualTo("still usable");
            }
        }
    }

    @Test
    void noticesAndNotifications() throws Exception {
        try (Connection listener = connect(); Connection notifier = connect()) {
            try (Statement statement = listener.createStatement()) {
                statement.execute("do $$ begin raise notice 'hello from the server'; end $$");
                SQLWarning warning = statement.getWarnings();
                assertThat((Object) warning).as("notice as SQLWarning").isNotNull();
                assertThat(warning.getMessage()).contains("hello from the server");
                statement.execute("listen memogate_channel");
            }
            try (Statement statement = notifier.createStatement()) {
                statement.execute("notify memogate_channel, 'payload 1'");
            }
            PGNotification[] notifications = listener.unwrap(PGConnection.class).getNotifications(10_000);
            assertThat(notifications).isNotNull().hasSize(1);
            assertThat(notifications[0].getName()).isEqualTo("memogate_channel");
            assertThat(notifications[0].getParameter()).isEqualTo("payload 1");
        }
    }

    @Test
    void parameterStatusReachesTheClient() throws Exception {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("set application_name = 'through memogate'");
            assertThat(connection.unwrap(PGConnection.class).getParameterStatus("application_name"))
                    .isEqualTo("through memogate");
            assertThat(connection.unwrap(PGConnection.class).getParameterStatus("server_version")).isNotBlank();
        }
    }

    @Test
    void serverErrorsPassThroughAndTheSessionContinues() throws Exception {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            assertThatThrownBy(() -> statement.execute("select * from no_such_table"))
                    .isInstanceOfSatisfying(PSQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("42P01"));
            connection.setAutoCommit(false);
            assertThatThrownBy(() -> statement.execute("select 1/0"))
                    .isInstanceOfSatisfying(PSQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("22012"));
            assertThatThrownBy(() -> statement.execute("select 1"))
                    .isInstanceOfSatisfying(PSQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("25P02"));
            connection.rollback();
            try (ResultSet rows = statement.executeQuery("select 3")) {
                rows.next();
                assertThat(rows.getInt(1)).isEqualTo(3);
            }
        }
    }

    @Test
    void largeResultArrivesWhole() throws Exception {
        // 100 MB: 100,000 rows of 1,000 bytes.
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            connection.setAutoCommit(false);
            statement.setFetchSize(1000);
            long bytes = 0;
            long rowCount = 0;
            try (ResultSet rows = statement.executeQuery(
                    "select repeat(chr(65 + g % 26), 1000) from generate_series(1, 100000) g")) {
                while (rows.next()) {
                    bytes += rows.getString(1).length();
                    rowCount++;
                }
            }
            assertThat(rowCount).isEqualTo(100_000);
            assertThat(bytes).isEqualTo(100_000_000L);
            connection.commit();
        }
    }
}

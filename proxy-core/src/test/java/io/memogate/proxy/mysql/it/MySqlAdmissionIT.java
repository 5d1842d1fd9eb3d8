package io.memogate.proxy.mysql.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mysql.cj.jdbc.exceptions.MySQLQueryInterruptedException;
import com.mysql.cj.jdbc.exceptions.MySQLStatementCancelledException;
import io.memogate.proxy.admission.AdmissionPoint;
import io.memogate.proxy.admission.StatementRequest;
import io.memogate.proxy.testing.Await;
import io.memogate.proxy.testing.ScriptedHook;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Admission through the MySQL wing, with a scripted hook: a held statement waits and then runs, a refused one
 * raises what the drivers raise for an interrupted query and the session goes on, and a driver's own cancel
 * (KILL QUERY on a connection of its own) withdraws a statement still held.
 */
@ExtendWith(MariaDbExtension.class)
class MySqlAdmissionIT {

    private final ScriptedHook hook = new ScriptedHook();
    private final ExecutorService clients = Executors.newCachedThreadPool();
    private MySqlProxy proxy;

    @BeforeEach
    void start(PrivateMariaDb db) throws Exception {
        proxy = MySqlProxy.to(db, hook);
    }

    @AfterEach
    void stop() {
        clients.shutdownNow();
        proxy.close();
    }

    private List<Connection> bothDrivers(String options) throws SQLException {
        return List.of(proxy.mariadb(options), proxy.connectorJ(options));
    }

    @Test
    void aHeldStatementWaitsUntilAdmittedThenRuns() throws Exception {
        for (Connection connection : bothDrivers("")) {
            try (connection; Statement statement = connection.createStatement()) {
                CompletableFuture<Integer> answer = CompletableFuture.supplyAsync(() -> single(statement,
                        "SELECT " + ScriptedHook.HOLD + " 42"), clients);
                proxy.awaitSessionIn("waiting for admission");
                assertThat(answer).isNotDone();
                hook.admitHeld();
                assertThat(answer.get(30, TimeUnit.SECONDS)).isEqualTo(42);
                Await.until("the held statement's permits are given back", () -> hook.released("held"));
                assertThat(single(statement, "SELECT 7")).isEqualTo(7);
            }
            hook.signals.clear();
        }
    }

    @Test
    void anExecuteIsAdmittedWithItsPreparedText() throws Exception {
        for (Connection connection : bothDrivers("useServerPrepStmts=true")) {
            String sql = "SELECT " + ScriptedHook.HOLD + " ? + 1";
            try (connection; PreparedStatement select = connection.prepareStatement(sql)) {
                select.setInt(1, 41);
                CompletableFuture<Integer> answer = CompletableFuture.supplyAsync(() -> {
                    try (ResultSet row = select.executeQuery()) {
                        row.next();
                        return row.getInt(1);
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                }, clients);
                proxy.awaitSessionIn("waiting for admission");
                hook.admitHeld();
                assertThat(answer.get(30, TimeUnit.SECONDS)).isEqualTo(42);
            }
            assertThat(hook.requests).anySatisfy(request -> {
                assertThat(request.point()).isEqualTo(AdmissionPoint.PREPARED_EXECUTION);
                assertThat(request.sql()).isEqualTo(sql);
            });
            hook.requests.clear();
        }
    }

    @Test
    void aRefusedStatementRaisesAnInterruptedQueryAndTheSessionGoesOn() throws Exception {
        for (Connection connection : bothDrivers("")) {
            try (connection; Statement statement = connection.createStatement()) {
                assertThatThrownBy(() -> statement.executeQuery("SELECT " + ScriptedHook.REFUSE + " 1"))
                        .isInstanceOfSatisfying(SQLException.class, e -> {
                            assertThat(e.getErrorCode()).isEqualTo(1317);
                            assertThat(e.getSQLState()).isEqualTo("70100");
                            assertThat(e.getMessage()).contains("LARGE gateway", "waited 2.0 s",
                                    "estimated planner memory 512.0 MiB");
                            assertThat((Throwable) e).as("what a driver raises for 70100, not a syntax error")
                                    .isNotInstanceOf(SQLSyntaxErrorException.class);
                        });
                assertThat(single(statement, "SELECT 8")).isEqualTo(8);
            }
        }
        assertThatThrownBy(() -> {
            try (Connection connection = proxy.mariadb("")) {
                connection.createStatement().executeQuery("SELECT " + ScriptedHook.REFUSE + " 1");
            }
        }).isInstanceOf(SQLTimeoutException.class);
        assertThatThrownBy(() -> {
            try (Connection connection = proxy.connectorJ("")) {
                connection.createStatement().executeQuery("SELECT " + ScriptedHook.REFUSE + " 1");
            }
        }).isInstanceOf(MySQLQueryInterruptedException.class);
    }

    /**
     * Connector/J's server-side cursor (an execute that opens one, then COM_STMT_FETCH): the answers are followed
     * to their ends, so a refusal after it is answered in its turn, not held behind an answer thought unfinished.
     */
    @Test
    void aRefusalAfterACursorsFetchesIsAnsweredInItsTurn() throws Exception {
        try (Connection connection = proxy.connectorJ("useServerPrepStmts=true&useCursorFetch=true&defaultFetchSize=2");
             Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE IF NOT EXISTS cursor_t (id INT PRIMARY KEY)");
            statement.execute("DELETE FROM cursor_t");
            statement.execute("INSERT INTO cursor_t VALUES (1), (2), (3), (4), (5)");
            try (PreparedStatement select = connection.prepareStatement("SELECT id FROM cursor_t WHERE id > ? ORDER BY id")) {
                select.setFetchSize(2);
                select.setInt(1, 0);
                int sum = 0;
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        sum += rows.getInt(1);
                    }
                }
                assertThat(sum).isEqualTo(15);
            }
            assertThatThrownBy(() -> statement.executeQuery("SELECT " + ScriptedHook.REFUSE + " 1"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1317));
            assertThat(single(statement, "SELECT 4")).isEqualTo(4);
        }
    }

    @Test
    void aDriversCancelWithdrawsAHeldStatement() throws Exception {
        for (Connection connection : bothDrivers("")) {
            try (connection; Statement statement = connection.createStatement()) {
                CompletableFuture<Integer> answer = CompletableFuture.supplyAsync(() -> single(statement,
                        "SELECT " + ScriptedHook.HOLD + " 1"), clients);
                proxy.awaitSessionIn("waiting for admission");
                statement.cancel();
                // The proxy's ERR 1317; or Connector/J's own "cancelled" exception when the driver notes its
                // cancel before it reads that ERR (a race of the driver's threads, not of the proxy's answer).
                assertThatThrownBy(() -> answer.get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                        .cause().cause().isInstanceOfSatisfying(SQLException.class, e -> {
                            if (!(e instanceof MySQLStatementCancelledException)) {
                                assertThat(e.getErrorCode()).isEqualTo(1317);
                                assertThat(e.getSQLState()).isEqualTo("70100");
                            }
                        });
                assertThat(hook.withdrawn).hasSize(1);
                assertThat(single(statement, "SELECT 9")).isEqualTo(9);
            }
            hook.withdrawn.clear();
        }
    }

    /** What a client pipelines behind a held statement waits in order, and is not asked about before it. */
    @Test
    void statementsPipelinedBehindAHeldOneFollowItInOrder() throws Exception {
        try (RawMySqlClient client = new RawMySqlClient(proxy.port())) {
            assertThat(client.login(PrivateMariaDb.USER, PrivateMariaDb.PASSWORD).first()).isZero();
            client.query("SELECT " + ScriptedHook.HOLD + " 1");
            client.query("SELECT 2");
            proxy.awaitSessionIn("waiting for admission");
            assertThat(hook.requests).extracting(StatementRequest::sql).containsExactly("SELECT " + ScriptedHook.HOLD + " 1");
            hook.admitHeld();
            assertThat(singleValue(client)).isEqualTo("1");
            assertThat(singleValue(client)).isEqualTo("2");
        }
    }

    /** The admin console's CANCEL names a MySQL session by its thread id and withdraws its held statement. */
    @Test
    void theOperatorsCancelWithdrawsAHeldStatementByThreadId() throws Exception {
        try (Connection connection = proxy.mariadb(""); Statement statement = connection.createStatement()) {
            int threadId = single(statement, "SELECT CONNECTION_ID()");
            CompletableFuture<Integer> answer = CompletableFuture.supplyAsync(() -> single(statement,
                    "SELECT " + ScriptedHook.HOLD + " 1"), clients);
            proxy.awaitSessionIn("waiting for admission");
            assertThat(proxy.server().cancel(threadId, Optional.empty(), "dba").toCompletableFuture()
                    .get(10, TimeUnit.SECONDS).done()).hasValueSatisfying(done -> assertThat(done).startsWith("withdrew"));
            assertThatThrownBy(() -> answer.get(30, TimeUnit.SECONDS)).cause().cause()
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1317));
            assertThat(single(statement, "SELECT 5")).isEqualTo(5);
        }
    }

    /** A one-row, one-column result set read off a raw connection (EOF packets: no CLIENT_DEPRECATE_EOF). */
    private static String singleValue(RawMySqlClient client) throws Exception {
        assertThat(client.read().payload()).containsExactly(1); // column count
        client.read();                                          // column definition
        client.read();                                          // EOF
        byte[] row = client.read().payload();
        assertThat(client.read().first()).isEqualTo(0xFE);      // EOF
        return new String(row, 1, row[0]);
    }

    @Test
    void releaseSignalsEndEachStatement() throws Exception {
        try (Connection connection = proxy.mariadb(""); Statement statement = connection.createStatement()) {
            assertThat(single(statement, "SELECT 3")).isEqualTo(3);
            assertThatThrownBy(() -> statement.executeQuery("SELECT * FROM no_such_table"))
                    .isInstanceOf(SQLException.class);
        }
        assertThat(hook.signals).containsSubsequence("SELECT 3 RUNNING", "SELECT 3 FIRST_RESPONSE",
                "SELECT 3 REQUEST_DONE");
        assertThat(hook.signals).contains("SELECT * FROM no_such_table ERROR")
                .doesNotContain("SELECT * FROM no_such_table REQUEST_DONE");
        assertThat(hook.requests).extracting(StatementRequest::sql).contains("SELECT 3");
    }

    private static int single(Statement statement, String sql) {
        try (ResultSet row = statement.executeQuery(sql)) {
            row.next();
            return row.getInt(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * mariadb-java-client sends a batch as one COM_STMT_BULK_EXECUTE: admitted once with its prepared text, and a
     * refused one inserts nothing and leaves the session usable.
     */
    @Test
    void aBulkExecuteIsAdmittedOnceWithItsPreparedText() throws Exception {
        try (Connection connection = proxy.mariadb("useBulkStmts=true&useServerPrepStmts=true");
             Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE IF NOT EXISTS bulk_t (id INT PRIMARY KEY, name VARCHAR(20))");
            statement.execute("DELETE FROM bulk_t");
            String insert = "INSERT INTO bulk_t VALUES (?, ?)";
            hook.requests.clear();
            try (PreparedStatement batch = connection.prepareStatement(insert)) {
                for (int i = 1; i <= 100; i++) {
                    batch.setInt(1, i);
                    batch.setString(2, "row " + i);
                    batch.addBatch();
                }
                batch.executeBatch();
            }
            assertThat(hook.requests).as("one admission for the batch of 100 rows")
                    .filteredOn(request -> request.sql().equals(insert)).singleElement()
                    .satisfies(request -> assertThat(request.point()).isEqualTo(AdmissionPoint.PREPARED_EXECUTION));
            assertThat(single(statement, "SELECT COUNT(*) FROM bulk_t")).isEqualTo(100);

            try (PreparedStatement refused = connection.prepareStatement(ScriptedHook.REFUSE + " " + insert)) {
                for (int i = 101; i <= 110; i++) {
                    refused.setInt(1, i);
                    refused.setString(2, "row " + i);
                    refused.addBatch();
                }
                assertThatThrownBy(refused::executeBatch).isInstanceOf(SQLException.class)
                        .hasMessageContaining("Memogate admission control");
            }
            assertThat(single(statement, "SELECT COUNT(*) FROM bulk_t")).isEqualTo(100);
        }
    }
}

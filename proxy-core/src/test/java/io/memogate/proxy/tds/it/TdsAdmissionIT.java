package io.memogate.proxy.tds.it;

import static io.memogate.proxy.tds.it.TdsProxy.single;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.microsoft.sqlserver.jdbc.SQLServerException;
import io.memogate.estimator.sqlserver.SqlServerSettings;
import io.memogate.proxy.admission.AdmissionPoint;
import io.memogate.proxy.testing.Await;
import io.memogate.proxy.testing.ScriptedHook;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * SQL batches through the TDS wing's admission, with mssql-jdbc: a held batch waits and then runs, a refused one
 * raises SQL Server's own 8628 and the session goes on, and a batch cancelled or timed out by the client while
 * queued is withdrawn and answered by the proxy, never reaching the server.
 */
class TdsAdmissionIT {

    private final ScriptedHook hook = new ScriptedHook();
    private final ExecutorService clients = Executors.newCachedThreadPool();
    private TdsTarget target;
    private TdsProxy proxy;

    @BeforeEach
    void start() throws Exception {
        target = TdsTarget.open();
        proxy = TdsProxy.to(target, hook);
    }

    @AfterEach
    void stop() throws Exception {
        clients.shutdownNow();
        proxy.close();
        target.close();
    }


    /** {@code SELECT n} sent on {@code s} from another thread, once the proxy holds it for admission. */
    private CompletableFuture<Integer> held(Statement s, int n) throws InterruptedException {
        CompletableFuture<Integer> answer = CompletableFuture.supplyAsync(() -> single(s,
                "SELECT " + n + " AS n " + ScriptedHook.HOLD), clients);
        proxy.awaitSessionIn("waiting for admission");
        return answer;
    }

    @Test
    void aBatchIsAdmittedWithItsTextReadAsTsql() throws Exception {
        try (Connection c = proxy.connect(""); Statement s = c.createStatement()) {
            assertThat(single(s, "SELECT TOP (5) 6 AS n FROM [dbo].[orders] WHERE name = N'x'")).isEqualTo(1);
        }
        assertThat(hook.requests).anySatisfy(request -> {
            assertThat(request.point()).isEqualTo(AdmissionPoint.STATEMENT_TEXT);
            // The T-SQL as the client sent it: the estimator's T-SQL dialect reads it, under SQL Server's settings.
            assertThat(request.sql()).isEqualTo("SELECT TOP (5) 6 AS n FROM [dbo].[orders] WHERE name = N'x'");
            assertThat(request.settings()).isEqualTo(SqlServerSettings.DEFAULTS);
            assertThat(request.session().user()).isEqualTo(target.user);
        });
    }

    @Test
    void aHeldBatchWaitsThenRunsAndGivesItsPermitsBack() throws Exception {
        try (Connection c = proxy.connect(""); Statement s = c.createStatement()) {
            CompletableFuture<Integer> answer = held(s, 42);
            assertThat(answer).isNotDone();
            hook.admitHeld();
            assertThat(answer.get(30, TimeUnit.SECONDS)).isEqualTo(42);
            Await.until("the held batch's permits are given back", () -> hook.released("held"));
            assertThat(single(s, "SELECT 7 AS n")).isEqualTo(7);
        }
    }

    /** 8628 at the smallest packet size: the proxy's answer is cut to the packets the client agreed to. */
    @Test
    void aRefusedBatchRaises8628AndTheSessionGoesOn() throws Exception {
        try (Connection c = proxy.connect(";packetSize=512"); Statement s = c.createStatement()) {
            assertThatThrownBy(() -> s.executeQuery("SELECT 1 AS n " + ScriptedHook.REFUSE))
                    .isInstanceOfSatisfying(SQLServerException.class, e -> {
                        assertThat(e.getErrorCode()).isEqualTo(8628);
                        assertThat(e.getSQLServerError().getErrorSeverity()).isEqualTo(17);
                        assertThat(e.getSQLServerError().getErrorState()).isEqualTo(1);
                        assertThat(e.getMessage()).contains("A time out occurred while waiting to optimize the query",
                                "LARGE gateway", "waited 2.0 s", "estimated planner memory 512.0 MiB");
                    });
            assertThat(single(s, "SELECT 8 AS n")).isEqualTo(8);
        }
        if (target.testServer.isPresent()) {
            assertThat(target.testServer.get().batches).noneMatch(text -> text.contains(ScriptedHook.REFUSE));
        }
    }

    /**
     * A refusal inside a transaction sends the server nothing: the transaction stays open, as SQL Server leaves it
     * after a compile error, and the client's own COMMIT ends it; no rollback comes from the proxy.
     */
    @Test
    void aRefusalInsideATransactionLeavesItOpenForTheClientsCommit() throws Exception {
        try (Connection c = proxy.connect(""); Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            assertThat(single(s, "SELECT 5 AS n /* inside the transaction */")).isEqualTo(5);
            assertThatThrownBy(() -> s.executeQuery("SELECT 1 AS n " + ScriptedHook.REFUSE))
                    .isInstanceOfSatisfying(SQLServerException.class,
                            e -> assertThat(e.getErrorCode()).isEqualTo(8628));
            if (target.testServer.isEmpty()) {
                assertThat(single(s, "SELECT @@TRANCOUNT AS n")).as("the transaction still open").isEqualTo(1);
            }
            c.commit();
        }
        if (target.testServer.isPresent()) {
            List<String> batches = target.testServer.get().batches;
            assertThat(batches).noneMatch(text -> text.contains(ScriptedHook.REFUSE))
                    .noneMatch(text -> text.toUpperCase(Locale.ROOT).contains("ROLLBACK"));
            int inside = indexOf(batches, "inside the transaction");
            assertThat(inside).as("the statement before the refusal reached the server").isNotNegative();
            assertThat(batches.subList(inside, batches.size())).as("the client's COMMIT after it")
                    .anyMatch(text -> text.toUpperCase(Locale.ROOT).contains("COMMIT"));
        }
    }

    private static int indexOf(List<String> batches, String part) {
        for (int i = 0; i < batches.size(); i++) {
            if (batches.get(i).contains(part)) {
                return i;
            }
        }
        return -1;
    }

    @Test
    void aCancelWhileQueuedWithdrawsTheBatchAndTheSessionGoesOn() throws Exception {
        try (Connection c = proxy.connect(""); Statement s = c.createStatement()) {
            CompletableFuture<Integer> answer = held(s, 3);
            s.cancel();
            assertThat(answer).failsWithin(30, TimeUnit.SECONDS).withThrowableThat()
                    .havingRootCause().isInstanceOf(SQLServerException.class)
                    .withMessageContaining("canceled");
            assertThat(hook.withdrawn).hasSize(1);
            assertThat(single(s, "SELECT 9 AS n")).isEqualTo(9);
        }
        if (target.testServer.isPresent()) {
            assertThat(target.testServer.get().batches).noneMatch(text -> text.contains(ScriptedHook.HOLD));
            assertThat(target.testServer.get().attentions).as("the attention was answered by the proxy").hasValue(0);
        }
    }

    /**
     * A cancel of a batch the server runs: the ATTENTION goes to the server, and the end of the cancelled batch's
     * answer gives its permits back (an ATTENTION is no request of its own to wait for an answer).
     */
    @Test
    void aCancelWhileTheServerRunsTheBatchReachesItAndGivesThePermitsBack() throws Exception {
        TdsTestServer server = target.recording();
        String running = "WAITFOR DELAY '01:00:00'";
        try (Connection c = proxy.connect(""); Statement s = c.createStatement()) {
            CompletableFuture<Boolean> answer = CompletableFuture.supplyAsync(() -> {
                try {
                    return s.execute(running);
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            }, clients);
            Await.until("the test server runs the WAITFOR", () -> server.batches.contains(running));
            s.cancel();
            assertThat(answer).failsWithin(30, TimeUnit.SECONDS).withThrowableThat()
                    .havingRootCause().isInstanceOf(SQLServerException.class).withMessageContaining("canceled");
            assertThat(server.cancelledWhileRunning).hasValue(1);
            Await.until("the cancelled batch's permits are given back", () -> hook.released(running));
            assertThat(single(s, "SELECT 12 AS n")).isEqualTo(12);
        }
    }

    @Test
    void theConsolesCancelWithdrawsAHeldBatchWith3617AndTheSessionGoesOn() throws Exception {
        try (Connection c = proxy.connect(""); Statement s = c.createStatement()) {
            CompletableFuture<Integer> answer = held(s, 5);

            assertThat(proxy.operator(false)).hasValueSatisfying(done -> assertThat(done)
                    .startsWith("withdrew the batch of").endsWith("from its admission queue"));
            assertThat(answer).failsWithin(30, TimeUnit.SECONDS).withThrowableThat()
                    .havingRootCause().isInstanceOfSatisfying(SQLServerException.class, e -> {
                        assertThat(e.getErrorCode()).isEqualTo(3617);
                        assertThat(e.getMessage()).contains("withdrawn from Memogate's admission queue by an operator");
                    });
            assertThat(single(s, "SELECT 11 AS n")).isEqualTo(11);
        }
        if (target.testServer.isPresent()) {
            assertThat(target.testServer.get().batches).noneMatch(text -> text.contains(ScriptedHook.HOLD));
        }
    }

    @Test
    void theConsolesKillEndsTheSessionWith596() throws Exception {
        try (Connection c = proxy.connect(""); Statement s = c.createStatement()) {
            CompletableFuture<Integer> answer = held(s, 6);

            assertThat(proxy.operator(true)).hasValueSatisfying(done -> assertThat(done)
                    .startsWith("terminated the session of"));
            assertThat(answer).failsWithin(30, TimeUnit.SECONDS).withThrowableThat()
                    .havingRootCause().isInstanceOfSatisfying(SQLServerException.class, e -> {
                        assertThat(e.getErrorCode()).isEqualTo(596);
                        assertThat(e.getMessage()).contains("dba from 127.0.0.1");
                    });
            assertThat(c.isValid(5)).isFalse();
        }
    }

    @Test
    void aQueryTimeoutWhileQueuedWithdrawsTheBatch() throws Exception {
        try (Connection c = proxy.connect(""); Statement s = c.createStatement()) {
            s.setQueryTimeout(1);
            assertThatThrownBy(() -> s.executeQuery("SELECT 4 AS n " + ScriptedHook.HOLD))
                    .isInstanceOf(SQLTimeoutException.class);
            assertThat(hook.withdrawn).hasSize(1);
            s.setQueryTimeout(0);
            assertThat(single(s, "SELECT 10 AS n")).isEqualTo(10);
        }
    }

    /** A PreparedStatement's first execution is sp_executesql: admitted with its statement, refused with 8628. */
    @Test
    void aPreparedStatementsSpExecutesqlIsAdmittedWithItsText() throws Exception {
        try (Connection c = proxy.connect("")) {
            try (PreparedStatement select = c.prepareStatement("SELECT 21 AS n WHERE ? = 1")) {
                select.setInt(1, 1);
                try (ResultSet rows = select.executeQuery()) {
                    assertThat(rows.next()).isTrue();
                    assertThat(rows.getInt(1)).isEqualTo(21);
                }
            }
            try (PreparedStatement refused = c.prepareStatement("SELECT 22 AS n WHERE ? = 1 " + ScriptedHook.REFUSE)) {
                refused.setInt(1, 1);
                assertThatThrownBy(refused::executeQuery).isInstanceOfSatisfying(SQLServerException.class,
                        e -> assertThat(e.getErrorCode()).isEqualTo(8628));
            }
            try (Statement s = c.createStatement()) {
                assertThat(single(s, "SELECT 23 AS n")).isEqualTo(23);
            }
        }
        assertThat(hook.requests).anySatisfy(request -> assertThat(request.sql()).isEqualTo("SELECT 21 AS n WHERE @P0 = 1"));
        if (target.testServer.isPresent()) {
            assertThat(target.testServer.get().rpcs).containsExactly("SELECT 21 AS n WHERE @P0 = 1");
        }
    }

    /**
     * A PreparedStatement prepared on its first call (sp_prepexec), then executed by the handle the server returned
     * (sp_execute): each execution waits for admission as the prepared statement's text, and a cancel while the
     * execution by handle waits withdraws it before the server sees it.
     */
    @Test
    void spExecuteByHandleIsAdmittedAsItsPreparedStatement() throws Exception {
        String sql = "SELECT 31 AS n WHERE ? = 1 " + ScriptedHook.HOLD;
        try (Connection c = proxy.connect(";enablePrepareOnFirstPreparedStatementCall=true");
                PreparedStatement select = c.prepareStatement(sql)) {
            for (int run = 0; run < 2; run++) {
                select.setInt(1, 1);
                CompletableFuture<Integer> answer = CompletableFuture.supplyAsync(() -> first(select), clients);
                proxy.awaitSessionIn("waiting for admission");
                hook.admitHeld();
                assertThat(answer.get(30, TimeUnit.SECONDS)).isEqualTo(31);
            }
            CompletableFuture<Integer> third = CompletableFuture.supplyAsync(() -> first(select), clients);
            proxy.awaitSessionIn("waiting for admission");
            select.cancel();
            assertThat(third).failsWithin(30, TimeUnit.SECONDS).withThrowableThat()
                    .havingRootCause().isInstanceOf(SQLServerException.class).withMessageContaining("canceled");
        }
        String asSent = "SELECT 31 AS n WHERE @P0 = 1 " + ScriptedHook.HOLD;
        assertThat(hook.requests).extracting(request -> request.sql()).containsExactly(asSent, asSent, asSent);
        assertThat(hook.withdrawn).containsExactly(asSent);
        if (target.testServer.isPresent()) {
            assertThat(target.testServer.get().procedureIds).as("sp_prepexec, then sp_execute; the cancelled one not")
                    .startsWith(13, 12).doesNotContainSequence(12, 12);
        }
    }

    private static int first(PreparedStatement statement) {
        try (ResultSet rows = statement.executeQuery()) {
            assertThat(rows.next()).isTrue();
            return rows.getInt(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}

package io.memogate.proxy.tds.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.memogate.broker.gateway.Tier;
import io.memogate.proxy.admission.AdmissionControl;
import io.memogate.proxy.admission.AdmissionPoint;
import io.memogate.proxy.admission.StatementRecord;
import io.memogate.proxy.admission.StatementRecord.Outcome;
import io.memogate.proxy.cli.RunningProxy;
import io.memogate.proxy.testing.Await;
import io.memogate.proxy.testing.ScriptedHook;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * tedious 19, the Node.js TDS driver, through the proxy to the test TDS server, without TLS: its login (TDS 7.4)
 * and the SQL batch it sends after it, a batch's rows, a parameterized request (an RPC to sp_executesql) admitted
 * as its statement, connection.prepare / execute (sp_prepare, then sp_execute by the handle the server returned,
 * each admitted as the statement), a refusal reaching tedious as a RequestError with SQL Server's number 8628 while
 * the connection goes on, and connection.cancel() while the request waits for admission (answered by the proxy;
 * the server never sees the request) and while the server runs it (the ATTENTION relayed to the server, and the
 * request's permits given back).
 */
class TdsTediousIT {

    private final ScriptedHook hook = new ScriptedHook();
    private TdsTarget target;
    private TdsProxy proxy;
    private TediousClient tedious;

    @BeforeEach
    void start() throws Exception {
        target = TdsTarget.open();
        proxy = TdsProxy.to(target, hook);
        tedious = TediousClient.start();
    }

    @AfterEach
    void stop() throws Exception {
        if (tedious != null) {
            tedious.close();
        }
        proxy.close();
        target.close();
    }

    private JsonNode connect() throws InterruptedException {
        JsonNode connected = tedious.call("connect", TediousClient.login(proxy.port(), target));
        assertThat(connected.path("error").isMissingNode()).as("connected: %s; events: %s", connected, tedious.events)
                .isTrue();
        return connected;
    }

    private static void assertOk(JsonNode answer) {
        assertThat(answer.path("ok").asBoolean()).as("tedious answered %s", answer).isTrue();
    }

    /** The first column of the only row. */
    private static int single(JsonNode answer) {
        assertOk(answer);
        assertThat(answer.get("rows")).as("rows of %s", answer).hasSize(1);
        return answer.get("rows").get(0).get(0).asInt();
    }

    private int batch(String sql) throws InterruptedException {
        return single(tedious.call("batch", Map.of("sql", sql)));
    }

    @Test
    void logsInAndRunsABatchAndAParameterizedRequest() throws Exception {
        JsonNode connected = connect();
        assertThat(connected.get("tdsVersion").asText()).isEqualTo("7_4");
        JsonNode rows = tedious.call("batch", Map.of("sql", "SELECT 42 AS n"));
        assertOk(rows);
        assertThat(rows.get("rows").get(0).get(0).asInt()).isEqualTo(42);
        assertThat(rows.get("rows").get(0).get(1).asText()).as("the test server echoes the batch").isEqualTo("SELECT 42 AS n");

        String parameterized = "SELECT 43 AS n WHERE @n = 1";
        JsonNode answer = tedious.call("sql", Map.of("sql", parameterized,
                "params", List.of(Map.of("name", "n", "type", "Int", "value", 1))));
        assertThat(single(answer)).isEqualTo(43);

        TdsTestServer server = target.recording();
        assertThat(server.logins).containsExactly("memo@demo");
        assertThat(server.batches).contains("SELECT 42 AS n");
        assertThat(server.procedureIds).as("sp_executesql by its ProcID").containsExactly(10);
        assertThat(server.rpcs).containsExactly(parameterized);
        assertThat(hook.requests).anySatisfy(request -> {
            assertThat(request.point()).isEqualTo(AdmissionPoint.STATEMENT_TEXT);
            assertThat(request.sql()).isEqualTo(parameterized);
        });
        Await.until("the parameterized request's permits are given back", () -> hook.released(parameterized));
    }

    /** connection.prepare sends sp_prepare, connection.execute sp_execute by the handle: each waits as the statement. */
    @Test
    void aPreparedRequestIsPreparedThenExecutedByHandleEachAdmittedAsItsStatement() throws Exception {
        connect();
        String sql = "SELECT 44 AS n WHERE @n = 1";
        JsonNode prepared = tedious.call("prepare", Map.of("name", "p", "sql", sql,
                "params", List.of(Map.of("name", "n", "type", "Int"))));
        assertOk(prepared);
        assertThat(prepared.get("handle").asInt()).as("the handle the server returned").isPositive();
        for (int run = 0; run < 2; run++) {
            assertThat(single(tedious.call("execute", Map.of("name", "p", "values", Map.of("n", 1))))).isEqualTo(44);
        }
        assertOk(tedious.call("unprepare", Map.of("name", "p")));
        assertThat(batch("SELECT 45 AS n")).isEqualTo(45);

        assertThat(hook.requests).extracting(request -> request.sql()).as("the prepare, then each execution by handle")
                .containsSubsequence(sql, sql, sql);
        TdsTestServer server = target.recording();
        assertThat(server.procedureIds).as("sp_prepare, sp_execute twice, sp_unprepare").containsExactly(11, 12, 12, 15);
        assertThat(server.rpcs).containsExactly(sql, sql, sql);
    }

    /** A refusal is SQL Server's error 8628 to tedious, for a batch and for a parameterized request alike. */
    @Test
    void aRefusedRequestIsARequestError8628AndTheConnectionGoesOn() throws Exception {
        connect();
        JsonNode refused = tedious.call("batch", Map.of("sql", "SELECT 46 AS n " + ScriptedHook.REFUSE));
        assertRefused(refused);
        assertThat(batch("SELECT 47 AS n")).isEqualTo(47);

        JsonNode refusedRpc = tedious.call("sql", Map.of("sql", "SELECT 48 AS n WHERE @n = 1 " + ScriptedHook.REFUSE,
                "params", List.of(Map.of("name", "n", "type", "Int", "value", 1))));
        assertRefused(refusedRpc);
        assertThat(single(tedious.call("sql", Map.of("sql", "SELECT 49 AS n")))).isEqualTo(49);

        TdsTestServer server = target.recording();
        assertThat(server.batches).noneMatch(text -> text.contains(ScriptedHook.REFUSE));
        assertThat(server.rpcs).noneMatch(text -> text.contains(ScriptedHook.REFUSE));
    }

    private static void assertRefused(JsonNode answer) {
        JsonNode error = answer.get("error");
        assertThat(error).as("tedious answered %s", answer).isNotNull();
        assertThat(error.get("name").asText()).isEqualTo("RequestError");
        assertThat(error.get("code").asText()).isEqualTo("EREQUEST");
        assertThat(error.get("number").asInt()).isEqualTo(8628);
        assertThat(error.get("class").asInt()).isEqualTo(17);
        assertThat(error.get("state").asInt()).isEqualTo(1);
        assertThat(error.get("message").asText()).contains("A time out occurred while waiting to optimize the query",
                "LARGE gateway", "waited 2.0 s", "estimated planner memory 512.0 MiB");
        assertThat(answer.get("rows")).isEmpty();
    }

    /** connection.cancel() while the request waits for admission: withdrawn and answered by the proxy. */
    @Test
    void aCancelWhileQueuedWithdrawsTheRequestAndTheConnectionGoesOn() throws Exception {
        connect();
        String held = "SELECT 50 AS n " + ScriptedHook.HOLD;
        int request = tedious.send("batch", Map.of("sql", held));
        proxy.awaitSessionIn("waiting for admission");
        assertThat(tedious.call("cancel", Map.of()).get("cancelled").asBoolean()).isTrue();
        assertCancelled(tedious.answer(request));
        assertThat(hook.withdrawn).containsExactly(held);
        assertThat(batch("SELECT 51 AS n")).isEqualTo(51);

        String heldRpc = "SELECT 52 AS n WHERE @n = 1 " + ScriptedHook.HOLD;
        int rpc = tedious.send("sql", Map.of("sql", heldRpc,
                "params", List.of(Map.of("name", "n", "type", "Int", "value", 1))));
        proxy.awaitSessionIn("waiting for admission");
        assertThat(tedious.call("cancel", Map.of()).get("cancelled").asBoolean()).isTrue();
        assertCancelled(tedious.answer(rpc));
        assertThat(single(tedious.call("sql", Map.of("sql", "SELECT 53 AS n")))).isEqualTo(53);

        TdsTestServer server = target.recording();
        assertThat(server.batches).noneMatch(text -> text.contains(ScriptedHook.HOLD));
        assertThat(server.rpcs).noneMatch(text -> text.contains(ScriptedHook.HOLD));
        assertThat(server.attentions).as("the attentions were answered by the proxy").hasValue(0);
    }

    /**
     * connection.cancel() while the server runs the request: the ATTENTION goes to the server, which ends the
     * request; the request's permits are given back, and the connection goes on.
     */
    @Test
    void aCancelWhileTheServerRunsTheRequestReachesTheServer() throws Exception {
        connect();
        String running = "WAITFOR DELAY '01:00:00'";
        int request = tedious.send("batch", Map.of("sql", running));
        TdsTestServer server = target.recording();
        Await.until("the test server runs the WAITFOR", () -> server.batches.contains(running));
        assertThat(tedious.answered(request)).as("the WAITFOR is still running").isFalse();
        assertThat(tedious.call("cancel", Map.of()).get("cancelled").asBoolean()).isTrue();
        assertCancelled(tedious.answer(request));
        assertThat(server.cancelledWhileRunning).hasValue(1);
        Await.until("the cancelled request's permits are given back", () -> hook.released(running));
        assertThat(batch("SELECT 54 AS n")).isEqualTo(54);
        Await.until("the next request's permits are given back", () -> hook.released("SELECT 54 AS n"));
    }

    private static void assertCancelled(JsonNode answer) {
        JsonNode error = answer.get("error");
        assertThat(error).as("tedious answered %s", answer).isNotNull();
        assertThat(error.get("name").asText()).isEqualTo("RequestError");
        assertThat(error.get("code").asText()).isEqualTo("ECANCEL");
        assertThat(error.get("message").asText()).isEqualTo("Canceled.");
    }

    /**
     * With the proxy as {@code memogate run} starts it, tedious's sp_executesql and its execution of a prepared
     * handle are estimated by the T-SQL dialect as their statement: a 16-table star join takes the LARGE gateway,
     * a point query bypasses.
     */
    @Test
    void aParameterizedRequestAndAnExecutionByHandleAreEstimatedAsTheirStatement() throws Exception {
        try (RunningProxy estimating = TdsEstimatedAdmissionIT.estimating(target)) {
            AdmissionControl admission = estimating.admission().orElseThrow().control("sqlserver");
            JsonNode connected = tedious.call("connect", TediousClient.login(estimating.server().port(), target));
            assertOk(connected);
            admission.statements().clear(); // what tedious sent after its login

            List<Map<String, Object>> n = List.of(Map.of("name", "n", "type", "Int", "value", 2));
            assertOk(tedious.call("sql", Map.of("sql", "SELECT TOP 1 [id] AS n FROM [s1] WHERE [id] = @n", "params", n)));
            StatementRecord point = last(admission);
            String star = TdsEstimatedAdmissionIT.star() + " AND [f].[id] > @n";
            assertOk(tedious.call("sql", Map.of("sql", star, "params", n)));
            StatementRecord join = last(admission);
            assertThat(point.outcome()).isEqualTo(Outcome.BYPASSED);
            assertThat(join.outcome()).isEqualTo(Outcome.ADMITTED);
            assertThat(join.highestTier()).contains(Tier.LARGE);
            assertThat(join.estimate().relations()).isEqualTo(16);

            assertOk(tedious.call("prepare", Map.of("name", "star", "sql", star,
                    "params", List.of(Map.of("name", "n", "type", "Int")))));
            int prepared = admission.statements().snapshot().size();
            assertOk(tedious.call("execute", Map.of("name", "star", "values", Map.of("n", 2))));
            assertThat(admission.statements().snapshot()).as("the execution by handle went through admission")
                    .hasSize(prepared + 1);
            StatementRecord byHandle = last(admission);
            assertThat(byHandle.highestTier()).as("sp_execute weighed as the prepared star").contains(Tier.LARGE);
            assertThat(byHandle.estimate().relations()).isEqualTo(16);
        }
        assertThat(target.recording().procedureIds).as("sp_executesql twice, sp_prepare, sp_execute")
                .containsExactly(10, 10, 11, 12);
    }

    private static StatementRecord last(AdmissionControl admission) {
        return admission.statements().snapshot().stream().reduce((first, next) -> next)
                .orElseThrow(() -> new AssertionError("no statement recorded"));
    }
}

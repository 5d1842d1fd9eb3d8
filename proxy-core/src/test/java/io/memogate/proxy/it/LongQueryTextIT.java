package io.memogate.proxy.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.postgres.PlannerSettings;
import io.memogate.proxy.admission.Admission;
import io.memogate.proxy.admission.GatedAdmission;
import io.memogate.proxy.admission.StatementRequest;
import io.memogate.proxy.cli.RunningProxy;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgresExtension;
import io.memogate.proxy.postgres.embedded.TestUsers;
import io.memogate.proxy.testing.Await;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A simple Query long enough to be read off the event loop ({@link GatedAdmission#OFF_LOOP_CHARS}) changes its
 * session as a short one does: its SET applies to the statements after it, its PREPARE lets their EXECUTE be
 * estimated as the query it runs, and the server answers everything in order.
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class LongQueryTextIT {

    private static final String PADDING = " -- " + "x".repeat(GatedAdmission.OFF_LOOP_CHARS) + "\n";

    @Test
    void aLongQuerysSetAndPrepareApplyToTheStatementsAfterIt(EmbeddedPostgres pg) throws Exception {
        List<StatementRequest> requests = new CopyOnWriteArrayList<>();
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).maxMessageBytes(1 << 20)
                        .admission(request -> {
                            requests.add(request);
                            return Admission.IMMEDIATE;
                        }).start();
                Connection connection = proxy.connect("demo", "memogate", "memogate", "preferQueryMode", "simple");
                Statement statement = connection.createStatement()) {
            statement.execute("set join_collapse_limit = 3; prepare long_p as select 42" + PADDING);
            try (ResultSet rows = statement.executeQuery("execute long_p")) {
                assertThat(rows.next()).isTrue();
                assertThat(rows.getInt(1)).isEqualTo(42);
            }
            try (ResultSet rows = statement.executeQuery("show join_collapse_limit")) {
                assertThat(rows.next()).isTrue();
                assertThat(rows.getString(1)).as("the server's").isEqualTo("3");
            }
        }
        StatementRequest execute = requests.stream().filter(r -> r.sql().equals("execute long_p")).findFirst()
                .orElseThrow();
        assertThat(((PlannerSettings) execute.settings()).joinCollapseLimit()).as("what the EXECUTE is estimated with").isEqualTo(3);
        assertThat(execute.prepared().textOf("long_p")).hasValueSatisfying(
                text -> assertThat(text).startsWith("prepare long_p as select 42"));
    }

    /**
     * A cancel that comes while a long Query's text is still read off the event loop withdraws it, as it
     * withdraws a statement queued for admission: the server has not seen the Query, so a cancel sent there
     * would be ignored and the statement would run. The common pool, where texts are read, is kept busy until
     * the cancel is in, so the cancel surely comes during the read.
     */
    @Test
    void aCancelDuringTheReadOfALongTextWithdrawsIt(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).maxMessageBytes(1 << 20)
                        .admission(request -> Admission.IMMEDIATE).start();
                RawPgClient client = new RawPgClient(proxy.port())) {
            List<RawPgClient.Message> startup = client.startup("memogate_trust", "demo");
            ByteBuffer key = startup.stream().filter(m -> m.type() == 'K').findFirst()
                    .map(m -> ByteBuffer.wrap(m.body())).orElseThrow();
            try (BusyCommonPool busy = BusyCommonPool.hold()) {
                client.query("select 'ran'" + PADDING);
                proxy.awaitSessionIn("reading query text"); // the whole Query is in, its read waits for the pool
                try (Socket cancel = new Socket("127.0.0.1", proxy.port());
                        DataOutputStream out = new DataOutputStream(cancel.getOutputStream())) {
                    out.writeInt(16);
                    out.writeInt(80877102); // CancelRequest
                    out.writeInt(key.getInt(0));
                    out.write(key.array(), 4, key.array().length - 4);
                    out.flush();
                    cancel.getInputStream().read(); // the proxy closes it once handled
                }
            }
            assertWithdrawnAndTheSessionGoesOn(client);
        }
    }

    /**
     * While a long text is being read the statement is in no queue yet: SHOW CLIENTS says its text is being read,
     * not that it waits for admission, and the console's CANCEL says what it did, that the statement is withdrawn
     * once read, rather than that it was taken out of a queue.
     */
    @Test
    void theConsoleShowsAndCancelsAStatementWhoseTextIsBeingRead(EmbeddedPostgres pg) throws Exception {
        try (RunningProxy proxy = RunningProxy.start(AdminConsoleIT.config(pg)); // gateways on: texts are read
                Connection console = ConsoleClient.connect(proxy.server().port(), TestUsers.SCRAM_USER,
                        TestUsers.SCRAM_PASSWORD);
                RawPgClient client = new RawPgClient(proxy.server().port())) {
            client.startup(TestUsers.TRUST_USER, "demo");
            try (BusyCommonPool busy = BusyCommonPool.hold()) {
                client.query("select 'ran'" + PADDING);
                Await.until("the session leaves idle", () -> !"idle".equals(trustSession(console).get("state")));
                Map<String, String> reading = trustSession(console);
                assertThat(reading).containsEntry("state", "reading query text").containsEntry("waiting", null);
                assertThat(ConsoleClient.run(console, "CANCEL " + reading.get("server_pid"))).singleElement()
                        .asString().startsWith("withdrew the statement of " + TestUsers.TRUST_USER + "@demo")
                        .contains("while its text was being read").contains("57014").doesNotContain("queue");
            }
            assertWithdrawnAndTheSessionGoesOn(client);
        }
    }

    private static Map<String, String> trustSession(Connection console) {
        try {
            return ConsoleClient.row(ConsoleClient.rows(console, "SHOW CLIENTS"), "user", TestUsers.TRUST_USER);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void assertWithdrawnAndTheSessionGoesOn(RawPgClient client) throws IOException {
        List<RawPgClient.Message> answers = client.readUntilReady();
        assertThat(answers).extracting(RawPgClient.Message::type).containsExactly('E', 'Z');
        assertThat(answers.get(0).sqlState()).isEqualTo("57014");
        client.query("select 'the session goes on'");
        assertThat(client.readUntilReady()).extracting(RawPgClient.Message::type)
                .containsExactly('T', 'D', 'C', 'Z');
    }
}

package io.memogate.proxy.it;

import static io.memogate.proxy.it.FaultsIT.assertQueryWorks;
import static io.memogate.proxy.it.FaultsIT.assertReady;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.estimator.postgres.PostgresLexicalRules;
import io.memogate.proxy.admission.Admission;
import io.memogate.proxy.admission.AdmissionHook;
import io.memogate.proxy.admission.AdmissionRejectedException;
import io.memogate.proxy.admission.AdmissionSupport;
import io.memogate.proxy.admission.AdmittedStatement;
import io.memogate.proxy.admission.StatementRequest;
import io.memogate.proxy.admission.WaitNotice;
import io.memogate.proxy.it.RawPgClient.Message;
import io.memogate.proxy.postgres.PostgresServer;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgresExtension;
import io.memogate.proxy.testing.Await;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.postgresql.util.PSQLWarning;

/**
 * A statement the proxy refuses (53000 from the gateways, 57014 for a cancel while queued) leaves the
 * client exactly where PostgreSQL leaves it after a failed statement: the connection stays usable, a
 * transaction block becomes failed and COMMIT answers ROLLBACK, an extended batch is skipped to its
 * Sync and its implicit transaction rolled back. Nothing refused runs, nothing else is lost.
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class RefusalIT {

    /** Refuses statements whose text says reject_me; holds those that say hold_me until withdrawn. */
    private static final class ScriptedHook implements AdmissionHook {
        final AtomicInteger rejected = new AtomicInteger();
        final AtomicInteger withdrawn = new AtomicInteger();
        final CountDownLatch holding = new CountDownLatch(1);

        @Override
        public Admission admit(StatementRequest request) {
            if (request.sql().contains("reject_me")) {
                rejected.incrementAndGet();
                return Admission.of(CompletableFuture.failedFuture(new AdmissionRejectedException(
                        "statement refused by the LARGE gateway: waited 300.0 s", "estimate 612 MB", "try later")));
            }
            if (request.sql().contains("hold_me")) {
                CompletableFuture<AdmittedStatement> decision = new CompletableFuture<>();
                holding.countDown();
                return new Admission() {
                    @Override
                    public CompletionStage<AdmittedStatement> decision() {
                        return decision;
                    }

                    @Override
                    public boolean withdraw() {
                        boolean was = decision.completeExceptionally(new CancellationException("withdrawn"));
                        if (was) {
                            withdrawn.incrementAndGet();
                        }
                        return was;
                    }

                    @Override
                    public Optional<WaitNotice> waiting() {
                        return Optional.of(new WaitNotice("queued for the LARGE gateway: position 1",
                                "held by the test's hook"));
                    }
                };
            }
            return Admission.IMMEDIATE;
        }
    }

    private final ScriptedHook hook = new ScriptedHook();

    private ProxyFixture proxy(EmbeddedPostgres pg) throws InterruptedException {
        AdmissionSupport quickNotice = new AdmissionSupport(PostgresServer.defaultSupport().serverDefaults(),
                Duration.ofMillis(200), PostgresLexicalRules.analyzer());
        return ProxyFixture.to(pg.host(), pg.port()).admission(hook).admissionSupport(quickNotice).start();
    }

    @Test
    void aRejectedSimpleQueryIs53000AndTheConnectionGoesOn(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = proxy(pg); RawPgClient client = new RawPgClient(proxy.port())) {
            assertReady(client.startup("memogate_trust", "demo"));
            client.query("select 1 /* reject_me */");
            List<Message> answer = client.readUntilReady();
            assertThat(answer).extracting(Message::type).containsExactly('E', 'Z');
            assertThat(answer.get(0).sqlState()).isEqualTo("53000");
            assertThat(answer.get(0).fields()).containsEntry('M', "statement refused by the LARGE gateway: waited 300.0 s")
                    .containsEntry('D', "estimate 612 MB").containsEntry('H', "try later");
            assertThat(answer.get(1).body()).containsExactly('I');
            assertQueryWorks(client);
        }
    }

    @Test
    void aRejectionInsideBeginFailsTheTransactionAndCommitAnswersRollback(EmbeddedPostgres pg) throws Exception {
        pg.execute("demo", "create table if not exists refused_in_tx (id int)", "truncate refused_in_tx");
        try (ProxyFixture proxy = proxy(pg); Connection connection = proxy.connect("demo", "memogate", "memogate");
                Statement statement = connection.createStatement()) {
            statement.execute("begin");
            statement.execute("insert into refused_in_tx values (1)");
            assertThatThrownBy(() -> statement.execute("select count(*) from refused_in_tx /* reject_me */"))
                    .isInstanceOf(SQLException.class).extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("53000");
            assertThatThrownBy(() -> statement.execute("select 1"))
                    .as("later statements of the failed transaction").isInstanceOf(SQLException.class)
                    .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("25P02");
            statement.execute("commit");
            assertThat(statement.getUpdateCount()).isZero();
            try (ResultSet rows = statement.executeQuery("select count(*) from refused_in_tx")) {
                rows.next();
                assertThat(rows.getInt(1)).as("nothing of the failed transaction committed").isZero();
            }
        }
    }

    @Test
    void commitOfTheFailedTransactionIsAnsweredRollbackOnTheWire(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = proxy(pg); RawPgClient client = new RawPgClient(proxy.port())) {
            assertReady(client.startup("memogate_trust", "demo"));
            client.query("begin");
            assertThat(client.readUntilReady()).last().extracting(Message::body).isEqualTo(new byte[] {'T'});
            client.query("select 2 /* reject_me */");
            List<Message> refused = client.readUntilReady();
            assertThat(refused).extracting(Message::type).containsExactly('E', 'Z');
            assertThat(refused.get(1).body()).as("transaction failed").containsExactly('E');
            client.query("commit");
            List<Message> commit = client.readUntilReady();
            assertThat(commit).extracting(Message::type).containsExactly('C', 'Z');
            assertThat(commit.get(0).text()).isEqualTo("ROLLBACK\0");
            assertThat(commit.get(1).body()).containsExactly('I');
        }
    }

    /**
     * A simple Query the gateways refuse inside an extended batch whose first message failed, before its Sync.
     * PostgreSQL skips every message up to the Sync, the Query too. The proxy failed the Query on the server with a
     * stand-in that carried a Sync of its own, which ended the server's skipping early: the client got a
     * ReadyForQuery PostgreSQL does not send, and the rest of the batch ran, an INSERT committed that PostgreSQL
     * skips. Found while working out what a fuzz test that refuses statements should expect.
     */
    @Test
    void aRejectedQueryInsideAFailedBatchIsSkippedAsPostgresqlSkipsIt(EmbeddedPostgres pg) throws Exception {
        String table = FaultsIT.tableAnyoneMayInsertInto(pg, "refused_skipped");
        try (ProxyFixture proxy = proxy(pg); RawPgClient client = new RawPgClient(proxy.port())) {
            assertReady(client.startup("memogate_trust", "demo"));
            client.send('E', RawPgClient.body(RawPgClient.cstring("no_such_portal"), RawPgClient.int32(0)));
            client.query("select 1 /* reject_me */");
            client.send('P', RawPgClient.body(RawPgClient.cstring(""),
                    RawPgClient.cstring("insert into " + table + " values (1)"), RawPgClient.int16(0)));
            client.send('B', RawPgClient.body(RawPgClient.cstring(""), RawPgClient.cstring(""), RawPgClient.int16(0),
                    RawPgClient.int16(0), RawPgClient.int16(0)));
            client.send('E', RawPgClient.body(RawPgClient.cstring(""), RawPgClient.int32(0)));
            client.send('S', new byte[0]);

            List<Message> answer = client.readUntilReady();
            assertThat(answer).extracting(Message::type).as("the batch's error, then the Sync's ReadyForQuery")
                    .containsExactly('E', 'Z');
            assertThat(answer.get(0).sqlState()).isEqualTo("34000");
            assertQueryWorks(client);
        }
        assertThat(FaultsIT.rows(pg, table)).as("rows of the skipped INSERT").isZero();
    }

    @Test
    void aRejectedBindSkipsItsBatchAndRollsBackTheImplicitTransaction(EmbeddedPostgres pg) throws Exception {
        pg.execute("demo", "create table if not exists refused_batch (note text)", "truncate refused_batch");
        try (ProxyFixture proxy = proxy(pg); Connection connection = proxy.connect("demo", "memogate", "memogate");
                PreparedStatement fine = connection.prepareStatement("insert into refused_batch values ('fine')");
                Statement statement = connection.createStatement()) {
            statement.addBatch("insert into refused_batch values ('first')");
            statement.addBatch("insert into refused_batch values ('second') /* reject_me */");
            statement.addBatch("insert into refused_batch values ('third')");
            assertThatThrownBy(statement::executeBatch).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(rootState((SQLException) e)).isEqualTo("53000"));
            fine.executeUpdate();
            try (ResultSet rows = statement.executeQuery("select string_agg(note, ',') from refused_batch")) {
                rows.next();
                assertThat(rows.getString(1)).as("the batch ran as one implicit transaction that failed")
                        .isEqualTo("fine");
            }
        }
        assertThat(hook.rejected.get()).isEqualTo(1);
    }

    /**
     * The refused Bind's parameter is far over limits.maxMessageBytes, so its head was held and its
     * parts queued behind it: they are dropped with it, and the server sees only the stand-in.
     */
    @Test
    void aRejectedBindWithALongParameterDropsItsPartsAndTheConnectionGoesOn(EmbeddedPostgres pg) throws Exception {
        pg.execute("demo", "create table if not exists refused_long (data bytea)", "truncate refused_long");
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).admission(hook).maxMessageBytes(16 * 1024)
                        .start();
                Connection connection = proxy.connect("demo", "memogate", "memogate");
                PreparedStatement refused = connection.prepareStatement("insert into refused_long values (?) /* reject_me */");
                PreparedStatement fine = connection.prepareStatement("insert into refused_long values (?)")) {
            refused.setBytes(1, LongMessagesIT.value(7));
            assertThatThrownBy(refused::executeUpdate).isInstanceOf(SQLException.class)
                    .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("53000");
            fine.setBytes(1, LongMessagesIT.value(8));
            assertThat(fine.executeUpdate()).isEqualTo(1);
        }
        try (Connection direct = pg.connect("demo"); Statement statement = direct.createStatement();
                ResultSet rows = statement.executeQuery("select md5(data) from refused_long")) {
            assertThat(rows.next()).isTrue();
            assertThat(rows.getString(1)).isEqualTo(LongMessagesIT.md5(LongMessagesIT.value(8)));
            assertThat(rows.next()).as("only the admitted row").isFalse();
        }
        assertThat(hook.rejected.get()).isEqualTo(1);
    }

    @Test
    void aCancelWhileQueuedIs57014AtOnceAndTheNextStatementWorks(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = proxy(pg); Connection connection = proxy.connect("demo", "memogate", "memogate");
                Statement statement = connection.createStatement()) {
            CompletableFuture<Void> canceller = CompletableFuture.runAsync(() -> {
                try {
                    assertThat(hook.holding.await(30, TimeUnit.SECONDS)).isTrue();
                    Await.until("the client told it waits", () -> statement.getWarnings() != null);
                    statement.cancel();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            assertThatThrownBy(() -> statement.executeQuery("select 3 /* hold_me */"))
                    .isInstanceOf(SQLException.class).extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("57014");
            canceller.get(30, TimeUnit.SECONDS);
            SQLWarning notice = statement.getWarnings();
            assertThat((Object) notice).as("the client was told it waits").isNotNull();
            assertThat(notice.getMessage()).contains("queued for the LARGE gateway: position 1");
            assertThat(((PSQLWarning) notice).getServerErrorMessage().getHint()).isEqualTo("held by the test's hook");
            try (ResultSet rows = statement.executeQuery("select 'still usable'")) {
                rows.next();
                assertThat(rows.getString(1)).isEqualTo("still usable");
            }
        }
        assertThat(hook.withdrawn.get()).isEqualTo(1);
    }

    private static String rootState(SQLException e) {
        SQLException next = e.getNextException();
        return next != null ? next.getSQLState() : e.getSQLState();
    }
}

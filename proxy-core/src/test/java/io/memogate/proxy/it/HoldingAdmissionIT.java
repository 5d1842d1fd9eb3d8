package io.memogate.proxy.it;

import static io.memogate.proxy.it.FaultsIT.assertReady;
import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.proxy.admission.Admission;
import io.memogate.proxy.admission.AdmissionHook;
import io.memogate.proxy.admission.AdmissionPoint;
import io.memogate.proxy.admission.AdmittedStatement;
import io.memogate.proxy.admission.ReleaseSignal;
import io.memogate.proxy.admission.StatementRequest;
import io.memogate.proxy.admission.WaitNotice;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgresExtension;
import io.memogate.proxy.it.RawPgClient.Message;
import io.memogate.proxy.testing.Await;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The admission hook can hold statements: while one waits, the client keeps pipelining, and every
 * result still arrives, complete and in order; each admitted statement hears a final release signal.
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class HoldingAdmissionIT {

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stopTimer() {
        timer.shutdownNow();
    }

    /** Admits every statement a few milliseconds late, from another thread, and records what it sees. */
    private final class DelayingHook implements AdmissionHook {
        final AtomicInteger held = new AtomicInteger();
        final AtomicInteger released = new AtomicInteger();
        final List<String> admittedSql = new CopyOnWriteArrayList<>();
        final Map<AdmissionPoint, AtomicInteger> byPoint = new ConcurrentHashMap<>();

        @Override
        public Admission admit(StatementRequest request) {
            held.incrementAndGet();
            byPoint.computeIfAbsent(request.point(), p -> new AtomicInteger()).incrementAndGet();
            CompletableFuture<AdmittedStatement> decision = new CompletableFuture<>();
            timer.schedule(() -> {
                admittedSql.add(request.sql());
                decision.complete(new AdmittedStatement() {
                    private boolean done;

                    @Override
                    public void signal(ReleaseSignal signal) {
                        if (signal.isFinal() && !done) {
                            done = true;
                            released.incrementAndGet();
                        }
                    }
                });
            }, 2, TimeUnit.MILLISECONDS);
            return Admission.of(decision);
        }
    }

    @Test
    void pipelinedSimpleQueriesHeldOneByOneAnswerInOrder(EmbeddedPostgres pg) throws Exception {
        DelayingHook hook = new DelayingHook();
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).admission(hook).start();
                RawPgClient client = new RawPgClient(proxy.port())) {
            assertReady(client.startup("memogate_trust", "demo"));
            int count = 200;
            ByteArrayOutputStream pipeline = new ByteArrayOutputStream();
            for (int i = 0; i < count; i++) {
                byte[] sql = ("select " + i + "\0").getBytes(StandardCharsets.UTF_8);
                pipeline.write('Q');
                pipeline.write(new byte[] {0, 0, 0, (byte) (4 + sql.length)});
                pipeline.write(sql);
            }
            client.sendRaw(pipeline.toByteArray()); // all 200 queries in one write

            for (int i = 0; i < count; i++) {
                List<Message> cycle = client.readUntilReady();
                assertThat(cycle).extracting(Message::type).containsExactly('T', 'D', 'C', 'Z');
                assertThat(dataRowValue(cycle.get(1))).isEqualTo(String.valueOf(i));
            }
            assertThat(hook.held.get()).isEqualTo(count);
            assertThat(hook.byPoint.get(AdmissionPoint.STATEMENT_TEXT).get()).isEqualTo(count);
            assertThat(hook.released.get()).as("every admitted statement released").isEqualTo(count);
        }
    }

    @Test
    void extendedProtocolBatchHeldAtEachBindLosesNothing(EmbeddedPostgres pg) throws Exception {
        DelayingHook hook = new DelayingHook();
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).admission(hook).start();
                Connection connection = proxy.connect("demo", "memogate", "memogate")) {
            try (Statement statement = connection.createStatement()) {
                statement.execute("create temporary table held_batch (seq serial, value int)");
            }
            try (PreparedStatement insert = connection.prepareStatement("insert into held_batch (value) values (?)")) {
                for (int i = 0; i < 300; i++) {
                    insert.setInt(1, i);
                    insert.addBatch();
                }
                assertThat(insert.executeBatch()).hasSize(300).containsOnly(1);
            }
            try (Statement statement = connection.createStatement();
                    ResultSet rows = statement.executeQuery("select count(*), bool_and(seq = value + 1) from held_batch")) {
                rows.next();
                assertThat(rows.getInt(1)).isEqualTo(300);
                assertThat(rows.getBoolean(2)).as("inserted in the order sent").isTrue();
            }
            assertThat(hook.byPoint.get(AdmissionPoint.PREPARED_EXECUTION).get()).isGreaterThanOrEqualTo(300);
            assertThat(hook.admittedSql).contains("insert into held_batch (value) values ($1)");
        }
        assertThat(hook.released.get()).as("every admitted statement released").isEqualTo(hook.held.get());
    }

    @Test
    void aStatementHeldIndefinitelyStopsReadingTheClient(EmbeddedPostgres pg) throws Exception {
        CompletableFuture<AdmittedStatement> gate = new CompletableFuture<>();
        AtomicInteger asked = new AtomicInteger();
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).admission(holdingFirst(gate, asked)).start();
                RawPgClient client = new RawPgClient(proxy.port())) {
            assertReady(client.startup("memogate_trust", "demo"));
            int queries = 4000; // ~40 MB of query text, far more than socket buffers hold
            String filler = "x".repeat(10_000);
            AtomicInteger written = new AtomicInteger();
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                try {
                    for (int i = 0; i < queries; i++) {
                        client.query("select " + i + " /* " + filler + " */");
                        written.incrementAndGet();
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            // TCP pushes back: what the client sent waits unread at the proxy, and more waits on the client's side.
            Await.until("the client's bytes wait unread on both sides of its connection", () -> writer.isDone()
                    || unread(proxy.port(), client.localPort()) > 0 && unacknowledged(client.localPort()) > 0);
            assertThat(writer).as("the proxy read all the client sent while the first was held").isNotDone();
            assertThat(written.get()).as("queries the client could write while the first was held").isLessThan(queries);
            assertThat(asked.get()).as("nothing after the held statement was admitted").isEqualTo(1);

            gate.complete(AdmittedStatement.UNGATED);
            for (int i = 0; i < queries; i++) {
                List<Message> cycle = client.readUntilReady();
                assertThat(dataRowValue(cycle.get(1))).isEqualTo(String.valueOf(i));
            }
            writer.get(30, TimeUnit.SECONDS);
        }
    }

    /**
     * A malformed message queued behind a held statement: once that statement is admitted, the client gets its
     * answers, then FATAL 08P01, and nothing it sent after the bad message reaches the server, as on PostgreSQL,
     * which never reads past it.
     */
    @Test
    void nothingQueuedAfterAMalformedMessageReachesTheServer(EmbeddedPostgres pg) throws Exception {
        pg.execute("demo", "create table if not exists after_bad_probe (n int)",
                "grant insert on after_bad_probe to public", "truncate after_bad_probe");
        CompletableFuture<AdmittedStatement> gate = new CompletableFuture<>();
        AtomicInteger asked = new AtomicInteger();
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).admission(holdingFirst(gate, asked)).start();
                RawPgClient client = new RawPgClient(proxy.port())) {
            assertReady(client.startup("memogate_trust", "demo"));
            client.query("select pg_sleep(0.2), 'first'");
            client.send('Q', "select 2".getBytes(StandardCharsets.UTF_8)); // no terminating NUL
            client.query("insert into after_bad_probe values (1)");
            proxy.awaitSessionIn("waiting for admission"); // the first: what came after is queued behind it
            gate.complete(AdmittedStatement.UNGATED);

            List<Message> answers = client.readUntilClosed();
            assertThat(answers).extracting(Message::type).containsExactly('T', 'D', 'C', 'Z', 'E');
            assertThat(answers.get(4).sqlState()).isEqualTo("08P01");
        }
        try (Connection direct = pg.connect("demo"); Statement statement = direct.createStatement();
                ResultSet count = statement.executeQuery("select count(*) from after_bad_probe")) {
            count.next();
            assertThat(count.getInt(1)).as("rows inserted after the malformed message").isZero();
        }
    }

    /**
     * A failure inside the proxy while it takes a decision made on another thread (here a hook that breaks
     * when asked a second time) ends the session with XX000, instead of leaving the client waiting forever.
     */
    @Test
    void aFailureWhileTakingAnAdmissionDecisionEndsTheSessionWithAnError(EmbeddedPostgres pg) throws Exception {
        CompletableFuture<AdmittedStatement> gate = new CompletableFuture<>();
        AtomicInteger asked = new AtomicInteger();
        AdmissionHook breaking = request -> new Admission() {
            @Override
            public CompletionStage<AdmittedStatement> decision() {
                return gate;
            }

            @Override
            public boolean bypassed() {
                if (asked.incrementAndGet() > 1) {
                    throw new IllegalStateException("hook broken on purpose");
                }
                return false;
            }

            @Override
            public boolean withdraw() {
                return false;
            }

            @Override
            public Optional<WaitNotice> waiting() {
                return Optional.empty();
            }
        };
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).admission(breaking).start();
                RawPgClient client = new RawPgClient(proxy.port())) {
            assertReady(client.startup("memogate_trust", "demo"));
            client.send('P', RawPgClient.body(RawPgClient.cstring("s1"), RawPgClient.cstring("select 1"),
                    RawPgClient.int16(0)));
            client.send('B', RawPgClient.body(RawPgClient.cstring(""), RawPgClient.cstring("s1"),
                    RawPgClient.int16(0), RawPgClient.int16(0), RawPgClient.int16(0)));
            client.send('E', RawPgClient.body(RawPgClient.cstring(""), RawPgClient.int32(0)));
            client.send('S', new byte[0]);
            proxy.awaitSessionIn("waiting for admission"); // so the decision comes later, on another thread
            gate.complete(AdmittedStatement.UNGATED);

            List<Message> answers = client.readUntilClosed();
            assertThat(answers).last().satisfies(error -> {
                assertThat(error.type()).isEqualTo('E');
                assertThat(error.sqlState()).isEqualTo("XX000");
                assertThat(error.fields().get('M')).contains("hook broken on purpose");
            });
        }
    }

    @Test
    void aPreparedStatementThatNeverNeedsAGatewayIsAskedAboutOnce(EmbeddedPostgres pg) throws Exception {
        AtomicInteger binds = new AtomicInteger();
        AdmissionHook bypassing = request -> {
            if (request.point() == AdmissionPoint.PREPARED_EXECUTION) {
                binds.incrementAndGet();
            }
            return Admission.BYPASS;
        };
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).admission(bypassing).start();
                Connection connection = proxy.connect("demo", "memogate", "memogate", "prepareThreshold", "1");
                PreparedStatement select = connection.prepareStatement("select ?::int + 1")) {
            for (int i = 0; i < 50; i++) {
                select.setInt(1, i);
                try (ResultSet rows = select.executeQuery()) {
                    rows.next();
                    assertThat(rows.getInt(1)).isEqualTo(i + 1);
                }
            }
        }
        assertThat(binds.get()).as("Binds of the same prepared statement sent to admission").isBetween(1, 2);
    }

    /** Bytes received on the proxy's side of the client's connection that the proxy has not read. */
    private static long unread(int proxyPort, int clientPort) throws IOException {
        return TcpTable.established().stream().filter(s -> s.localPort() == proxyPort && s.remotePort() == clientPort)
                .mapToLong(TcpTable.Socket::receiveQueue).sum();
    }

    /** Bytes the client wrote that the proxy's side has not taken in: a full receive buffer keeps them here. */
    private static long unacknowledged(int clientPort) throws IOException {
        return TcpTable.established().stream().filter(s -> s.localPort() == clientPort)
                .mapToLong(TcpTable.Socket::sendQueue).sum();
    }

    /** Holds the first statement until {@code gate} completes, admits the others at once; counts them all. */
    private static AdmissionHook holdingFirst(CompletableFuture<AdmittedStatement> gate, AtomicInteger asked) {
        return request -> asked.incrementAndGet() == 1 ? Admission.of(gate) : Admission.IMMEDIATE;
    }

    static String dataRowValue(Message dataRow) {
        assertThat(dataRow.type()).isEqualTo('D');
        byte[] body = dataRow.body();
        int length = ((body[2] & 0xff) << 24) | ((body[3] & 0xff) << 16) | ((body[4] & 0xff) << 8) | (body[5] & 0xff);
        return new String(body, 6, length, StandardCharsets.UTF_8);
    }
}

package io.memogate.proxy.it;

import static io.memogate.proxy.it.FaultsIT.assertReady;
import static io.memogate.proxy.it.FaultsIT.rows;
import static io.memogate.proxy.it.FaultsIT.tableAnyoneMayInsertInto;
import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.proxy.admission.Admission;
import io.memogate.proxy.admission.AdmissionHook;
import io.memogate.proxy.admission.AdmittedStatement;
import io.memogate.proxy.admission.ReleaseSignal;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgresExtension;
import io.memogate.proxy.it.RawPgClient.Message;
import io.memogate.proxy.testing.Await;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Streams broken where the proxy's bookkeeping, not its framing, decides what happens next: each found by
 * {@code ProtocolFuzzIT} (the seed is named) and kept here as a plain case. Whatever the client sent, it gets
 * an answer and the connection ends; it does not wait for one that never comes.
 */
@ExtendWith(EmbeddedPostgresExtension.class)
class BrokenClientStreamIT {

    private static final String TRUSTED = "memogate_trust";

    /**
     * A bad message among COPY FROM STDIN data (fuzz seed 14: a CopyData whose length word was cut to 4, so
     * its row's bytes were read as the next header). PostgreSQL, reading the data, answers it at once with
     * ERROR and FATAL 08P01. The proxy's FATAL waited for the answers to the statements sent before, and
     * the COPY is one: but a server in COPY FROM STDIN answers only once the client ends the data, which a
     * client whose stream is broken never does. The client waited for ever.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aBadMessageAmidCopyDataIsRefusedAtOnce(boolean waitForCopyInResponse, EmbeddedPostgres pg) throws Exception {
        String table = tableAnyoneMayInsertInto(pg, "copy_broken");
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).start();
                RawPgClient client = loggedIn(proxy)) {
            client.query("copy " + table + " from stdin");
            if (waitForCopyInResponse) {
                assertThat(client.read().type()).as("CopyInResponse").isEqualTo('G');
            }
            client.send('d', "1\n".getBytes(StandardCharsets.US_ASCII));
            client.sendRaw(new byte[] {'d', 0, 0, 0, 3}); // a length that cannot hold itself

            List<Message> answers = client.readUntilClosed(); // a SocketTimeoutException here is the hang
            assertFatalProtocolViolation(answers.getLast());
        }
        assertThat(rows(pg, table)).as("the COPY did not end, so nothing of it is committed").isZero();
    }

    /**
     * A type byte no client message has, and nothing after it (fuzz seeds 11504, 11771, 12093: a stream out of
     * step cut short). PostgreSQL refuses it on that byte with FATAL 08P01; the proxy waited for the four bytes
     * of a length word before it looked at the type, and the client with it.
     */
    @Test
    void anUnknownTypeByteAloneIsRefusedAtOnce(EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).start();
                RawPgClient client = loggedIn(proxy)) {
            client.sendRaw(new byte[] {'z'});

            List<Message> answers = client.readUntilClosed();
            assertThat(answers).hasSize(1);
            assertFatalProtocolViolation(answers.getFirst());
        }
    }

    /**
     * During COPY FROM STDIN data, the start of a message PostgreSQL does not read there (fuzz seeds 20110,
     * 24369: a Parse, a Query, their rest never sent). PostgreSQL refuses it on its type byte with ERROR and
     * FATAL 08P01; the proxy waited for the whole message before passing it on, and the client with it.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void theStartOfAnotherMessageAmidCopyDataIsRefusedAtOnce(boolean waitForCopyInResponse, EmbeddedPostgres pg)
            throws Exception {
        String table = tableAnyoneMayInsertInto(pg, "copy_other");
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).start();
                RawPgClient client = loggedIn(proxy)) {
            byte[] copyData = message('d', "1\n".getBytes(StandardCharsets.US_ASCII));
            byte[] startOfParse = {'P', 0, 0}; // a Parse's type and half its length word
            if (waitForCopyInResponse) {
                client.query("copy " + table + " from stdin");
                assertThat(client.read().type()).as("CopyInResponse").isEqualTo('G');
                client.sendRaw(RawPgClient.body(copyData, startOfParse));
            } else { // all of it before the server's CopyInResponse reaches the proxy
                client.sendRaw(RawPgClient.body(message('Q', RawPgClient.cstring("copy " + table + " from stdin")),
                        copyData, startOfParse));
            }

            List<Message> answers = client.readUntilClosed();
            assertThat(answers).extracting(Message::type)
                    .containsExactly(waitForCopyInResponse ? new Character[] {'E'} : new Character[] {'G', 'E'});
            assertFatalProtocolViolation(answers.getLast());
        }
        assertThat(rows(pg, table)).as("the COPY never ended").isZero();
    }

    /**
     * A Query inside an extended batch that failed (fuzz seeds 48, 50, 173: messages swapped). PostgreSQL skips
     * every message up to the batch's Sync, the Query too, so it never answers it; the proxy counted on a
     * ReadyForQuery for it, and a bad message after it had its FATAL wait for that answer for ever. Whether the
     * client sends the Query before the error comes back or after, the FATAL comes at once, as from PostgreSQL.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aQuerySkippedInAFailedBatchIsNotWaitedFor(boolean readErrorFirst, EmbeddedPostgres pg) throws Exception {
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).start();
                RawPgClient client = loggedIn(proxy)) {
            client.send('E', RawPgClient.body(RawPgClient.cstring("no_such_portal"), RawPgClient.int32(0)));
            client.send('H', new byte[0]);
            if (readErrorFirst) {
                assertThat(client.read().sqlState()).isEqualTo("34000");
            }
            client.query("select 1"); // skipped by the server: no Sync yet
            client.send('z', new byte[0]);

            List<Message> answers = client.readUntilClosed();
            assertThat(answers).extracting(Message::type).as("no answer to the skipped Query")
                    .containsExactly(readErrorFirst ? new Character[] {'E'} : new Character[] {'E', 'E'});
            assertFatalProtocolViolation(answers.getLast());
        }
    }

    /**
     * COPY FROM STDIN by Parse, Bind, Execute, its data and CopyDone, then a bad message before the batch's Sync
     * (fuzz seed 1582). The proxy waited for the ReadyForQuery of the Sync sent among the data, which the server
     * ignores, and the client for ever. Now the FATAL follows the CopyInResponse: the COPY's CommandComplete,
     * which the server holds until a Sync or Flush (PostgreSQL's own FATAL flushes it), belongs to a batch sent
     * without its Sync, which the proxy does not wait for (docs/admission.md, "Errors the proxy itself sends").
     */
    @Test
    void aBadMessageAfterAnExtendedCopyBeforeItsSyncIsRefusedOnceTheCopyIsAnswered(EmbeddedPostgres pg)
            throws Exception {
        String table = tableAnyoneMayInsertInto(pg, "copy_unsynced");
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).start();
                RawPgClient client = loggedIn(proxy)) {
            client.send('P', RawPgClient.body(RawPgClient.cstring(""), RawPgClient.cstring("copy " + table
                    + " from stdin"), RawPgClient.int16(0)));
            client.send('B', RawPgClient.body(RawPgClient.cstring(""), RawPgClient.cstring(""), RawPgClient.int16(0),
                    RawPgClient.int16(0), RawPgClient.int16(0)));
            client.send('E', RawPgClient.body(RawPgClient.cstring(""), RawPgClient.int32(0)));
            client.send('S', new byte[0]); // as libpq sends it: read in copy mode, ignored
            client.send('d', "1\n".getBytes(StandardCharsets.US_ASCII));
            client.send('c', new byte[0]);
            client.send('z', new byte[0]);

            List<Message> answers = client.readUntilClosed();
            assertThat(answers).extracting(Message::type).containsExactly('1', '2', 'G', 'E');
            assertFatalProtocolViolation(answers.getLast());
        }
        assertThat(rows(pg, table)).as("the batch was never synced: rolled back").isZero();
    }

    /**
     * A bad message behind a statement held for admission (fuzz seeds 7, 16, 22, 110, 112, 170 through the holding
     * proxy: a length word mutated, a type byte no message has). PostgreSQL answers the Queries sent whole before
     * the bad message, then refuses it. The proxy sent its FATAL at once: the held Query never ran, and a Query it
     * had forwarded before ran and committed without the client being told, so a client that retries runs it twice.
     * Now the FATAL waits behind the held statement, which is admitted and answered first.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aBadMessageBehindAHeldStatementIsRefusedAfterItsAnswers(boolean firstHeldToo, EmbeddedPostgres pg)
            throws Exception {
        String table = tableAnyoneMayInsertInto(pg, "held_broken");
        AdmissionHook holdingMarked = request -> !request.sql().contains("/* held */") ? Admission.IMMEDIATE
                : Admission.of(CompletableFuture.supplyAsync(() -> AdmittedStatement.UNGATED,
                        CompletableFuture.delayedExecutor(100, TimeUnit.MILLISECONDS)));
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).admission(holdingMarked).start();
                RawPgClient client = loggedIn(proxy)) {
            // In one write, so that the bad message is read while the second Query is held.
            client.sendRaw(RawPgClient.body(
                    message('Q', RawPgClient.cstring((firstHeldToo ? "/* held */ " : "") + "insert into " + table
                            + " values (1)")),
                    message('Q', RawPgClient.cstring("/* held */ insert into " + table + " values (2)")),
                    new byte[] {'z'}));

            List<Message> answers = client.readUntilClosed();
            assertThat(answers).extracting(Message::type).as("each INSERT answered, then the FATAL")
                    .containsExactly('C', 'Z', 'C', 'Z', 'E');
            assertFatalProtocolViolation(answers.getLast());
        }
        assertThat(rows(pg, table)).isEqualTo(2);
    }

    /**
     * The server ends the session, and the proxy writes to it before it has read the server's last messages
     * (fuzz seed 2829 through the holding proxy: a Parse pipelined into the data of an extended COPY FROM STDIN,
     * which PostgreSQL refuses with ERROR, then FATAL 08P01, then closes; statements held for admission had the
     * proxy forward the client's later messages from tasks, and one ran before the server's answer was read). The
     * failed write closed the server connection unread: the client got FATAL 08006, "server closed the
     * connection", in place of the server's answers and its own FATAL. Here the event loop is kept busy on
     * purpose while the server goes: the hook waits in it until the server process has exited.
     */
    @Test
    void whatTheServerSentBeforeAFailedWriteIsRelayed(EmbeddedPostgres pg) throws Exception {
        String table = tableAnyoneMayInsertInto(pg, "copy_then_gone");
        AdmittedStatement keptWhileRunning = new AdmittedStatement() {
            @Override
            public void signal(ReleaseSignal signal) {}

            @Override
            public boolean plannedWhileRunning() {
                return true; // so the proxy flushes what it forwarded at once, with a Flush behind the Bind
            }
        };
        AtomicInteger serverPid = new AtomicInteger();
        AdmissionHook hook = request -> {
            if (request.sql().startsWith("copy")) { // held a moment: what follows is queued behind it
                return Admission.of(CompletableFuture.supplyAsync(() -> AdmittedStatement.UNGATED,
                        CompletableFuture.delayedExecutor(50, TimeUnit.MILLISECONDS)));
            } else if (request.sql().equals("select 1")) {
                return Admission.of(CompletableFuture.completedFuture(keptWhileRunning));
            } else if (request.sql().equals("select 2")) {
                awaitExit(serverPid.get()); // on the event loop, which reads nothing meanwhile
            }
            return Admission.IMMEDIATE;
        };
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).admission(hook).start();
                RawPgClient client = loggedIn(proxy)) {
            serverPid.set(client.serverPid());
            client.sendRaw(RawPgClient.body(
                    message('P', RawPgClient.body(RawPgClient.cstring(""),
                            RawPgClient.cstring("copy " + table + " from stdin"), RawPgClient.int16(0))),
                    message('B', unnamedBind()),
                    message('E', RawPgClient.body(RawPgClient.cstring(""), RawPgClient.int32(0))),
                    // PostgreSQL reads COPY data now: a Parse there is ERROR, then FATAL, then it closes.
                    message('P', RawPgClient.body(RawPgClient.cstring(""), RawPgClient.cstring("select 1"),
                            RawPgClient.int16(0))),
                    message('B', unnamedBind()),
                    message('Q', RawPgClient.cstring("select 2")),
                    // Two more writes (each Bind has the proxy flush): the first has the server's side answer
                    // with a reset, the second fails.
                    message('B', unnamedBind()),
                    message('B', unnamedBind()),
                    message('S', new byte[0])));

            List<Message> answers = client.readUntilClosed();
            assertThat(answers).extracting(Message::type).as("the server's answers, not the proxy's 08006")
                    .containsExactly('1', '2', 'G', 'E', 'E');
            assertThat(answers.get(3).sqlState()).isEqualTo("08P01");
            assertFatalProtocolViolation(answers.getLast());
        }
    }

    private static byte[] unnamedBind() {
        return RawPgClient.body(RawPgClient.cstring(""), RawPgClient.cstring(""), RawPgClient.int16(0),
                RawPgClient.int16(0), RawPgClient.int16(0));
    }

    /** Waits until the server process has exited: the kernel has closed its end of the connection then. */
    private static void awaitExit(int pid) {
        try {
            Await.until("server process " + pid + " exited", () -> ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
                    .isEmpty());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * A Sync among simple-protocol COPY data after a row that fails (fuzz seed 90). PostgreSQL ignores a Sync
     * while it reads COPY data, but the failing row ends the COPY, so it reads this Sync afterwards and answers
     * it with a ReadyForQuery of its own. The proxy took every Sync sent among the data as ignored: one
     * ReadyForQuery more than it counted came, and the FATAL for a later bad message went before the answer to
     * the Query sent before it, a Query the server ran. The client was told the session ended and not that its
     * INSERT committed.
     */
    @Test
    void aSyncAmongFailedCopyDataIsCountedAsTheServerAnswersIt(EmbeddedPostgres pg) throws Exception {
        String table = tableAnyoneMayInsertInto(pg, "copy_sync");
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).start();
                RawPgClient client = loggedIn(proxy)) {
            // In one write, so that the proxy has passed the Sync on before the server's answers come back.
            client.sendRaw(RawPgClient.body(
                    message('Q', RawPgClient.cstring("copy " + table + " from stdin")),
                    message('d', "not a number\n".getBytes(StandardCharsets.US_ASCII)),
                    message('S', new byte[0]),
                    message('c', new byte[0]),
                    message('Q', RawPgClient.cstring("select pg_sleep(0.5); insert into " + table + " values (1)")),
                    message('z', new byte[0])));

            List<Message> answers = client.readUntilClosed();
            assertThat(answers).extracting(Message::type).as("the INSERT's answer before the FATAL")
                    .containsSubsequence('C', 'Z', 'E');
            assertThat(answers.get(answers.size() - 3).text()).startsWith("INSERT");
            assertFatalProtocolViolation(answers.getLast());
        }
        assertThat(rows(pg, table)).isEqualTo(1);
    }

    /**
     * A Sync among simple-protocol COPY data, a row that fails, then a bad message (fuzz seeds 2552, 3843).
     * PostgreSQL answers the Sync when it reads it after the failing row, and ignores it before; then it refuses
     * the bad message. The proxy cannot tell which, so it waits for neither: it ends the server connection
     * and sends the FATAL when that has closed. Before, a Sync read after the failure was answered after the
     * FATAL, which the client never got: it lost that ReadyForQuery.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aBadMessageAfterAFailedCopyWaitsForASyncAmongItsDataIfTheServerAnswersIt(boolean syncAfterFailingRow,
            EmbeddedPostgres pg) throws Exception {
        String table = tableAnyoneMayInsertInto(pg, "copy_sync_fatal");
        byte[] good = message('d', "1\n".getBytes(StandardCharsets.US_ASCII));
        byte[] bad = message('d', "not a number\n".getBytes(StandardCharsets.US_ASCII));
        byte[] sync = message('S', new byte[0]);
        try (ProxyFixture proxy = ProxyFixture.to(pg.host(), pg.port()).start();
                RawPgClient client = loggedIn(proxy)) {
            client.sendRaw(RawPgClient.body(
                    message('Q', RawPgClient.cstring("copy " + table + " from stdin")),
                    syncAfterFailingRow ? bad : good,
                    sync,
                    syncAfterFailingRow ? good : bad,
                    message('c', new byte[0]),
                    new byte[] {'$', 0, 0, 0, 4})); // no such message type

            List<Message> answers = client.readUntilClosed();
            assertThat(answers).extracting(Message::type).as("the Sync is answered: " + syncAfterFailingRow)
                    .containsExactlyElementsOf(syncAfterFailingRow
                            ? List.of('G', 'E', 'Z', 'Z', 'E')
                            : List.of('G', 'E', 'Z', 'E'));
            assertThat(answers.get(1).sqlState()).isEqualTo("22P02");
            assertFatalProtocolViolation(answers.getLast());
        }
        assertThat(rows(pg, table)).isZero();
    }

    private static byte[] message(char type, byte[] body) {
        return RawPgClient.body(new byte[] {(byte) type}, RawPgClient.int32(4 + body.length), body);
    }

    /** A client of {@code proxy}, logged in as the trusted role, that waits at most 5 s for an answer. */
    private static RawPgClient loggedIn(ProxyFixture proxy) throws IOException {
        RawPgClient client = new RawPgClient(proxy.port());
        try {
            assertReady(client.startup(TRUSTED, "demo"));
            client.setReadTimeout(5_000);
            return client;
        } catch (IOException | RuntimeException | Error e) {
            client.close();
            throw e;
        }
    }

    private static void assertFatalProtocolViolation(Message last) {
        assertThat(last.type()).isEqualTo('E');
        assertThat(last.fields().get('V')).isEqualTo("FATAL");
        assertThat(last.sqlState()).isEqualTo("08P01");
    }
}

package io.memogate.proxy.pg.session;

import static io.memogate.proxy.pg.session.EmbeddedSession.frame;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.memogate.proxy.admission.Admission;
import io.memogate.proxy.admission.AdmissionHook;
import io.memogate.broker.gateway.GatewayListener;
import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.broker.gateway.Gateways;
import io.memogate.broker.gateway.LocalGateways;
import io.memogate.estimator.CompileEstimator;
import io.memogate.proxy.admission.GatedAdmission;
import io.memogate.proxy.admission.ImmediateAdmission;
import io.memogate.proxy.pg.message.backend.BackendMessage;
import io.memogate.proxy.pg.message.backend.BindComplete;
import io.memogate.proxy.pg.message.backend.CommandComplete;
import io.memogate.proxy.pg.message.backend.DataRow;
import io.memogate.proxy.pg.message.backend.ReadyForQuery;
import io.memogate.proxy.pg.message.backend.ReadyForQuery.TransactionStatus;
import io.memogate.proxy.pg.message.backend.RowDescription;
import io.memogate.proxy.pg.message.frontend.Bind;
import io.memogate.proxy.pg.message.frontend.Describe;
import io.memogate.proxy.pg.message.frontend.Execute;
import io.memogate.proxy.pg.message.frontend.Parse;
import io.memogate.proxy.pg.message.frontend.Query;
import io.memogate.proxy.pg.message.frontend.StatementOrPortal;
import io.memogate.proxy.pg.message.frontend.Sync;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.FastThreadLocalThread;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The session makes no object per message it relays (the "no allocation per forwarded message") in
 * pgbench's two transactions with gateways off, where every statement goes to the server as it is: a prepared
 * statement run as libpq runs it (PQexecPrepared: Bind, Describe of the portal, Execute, Sync) answered by
 * BindComplete, RowDescription, DataRow, CommandComplete and ReadyForQuery, and a simple Query answered by
 * RowDescription, DataRow, CommandComplete and ReadyForQuery, each through the session both ways. Measured as the bytes allocated by the thread that runs them (HotSpot counts them per thread), over
 * 100,000 transactions after a warm-up, with the frames the decoders would hand on made once and sent again: so
 * only the session's own allocations count, not the slice a decoder makes of a socket read (bench/log/allocation.md).
 * Before, each client message was wrapped in an object and each Query or Bind was checked through a slice: 56 bytes
 * per Query, 58 to 95 per prepared run, as much of it as the JIT did not remove.
 */
class RelayAllocationTest {

    private static final int WARM_UP = 20_000;
    private static final int TRANSACTIONS = 100_000;
    /** One object of 16 bytes, the smallest there is, made per transaction would allocate four times this. */
    private static final double MAX_BYTES_PER_TRANSACTION = 4;
    /**
     * What a Bind admission let bypass may still make per prepared run: 56 bytes measured (its OwnedFrame, and 40
     * bytes not traced further), where it made 200 when each Bind decoded its names and made its unread text.
     */
    private static final double BYPASSED_BIND_BYTES = 64;
    /**
     * What a gated Query may make: 178 bytes measured (its text as a String, the estimate cache's key, the request,
     * its OwnedFrame), where it made 213 when the text was also made a record of what it changes in the session
     * though it held none of the words that may, and 9,442 when each Query built the settings it could be degraded
     * to, and more while it lower-cased its text to seek words in it and made a context for an estimate that was a
     * cache hit.
     */
    private static final double GATED_QUERY_BYTES = 200;
    /**
     * What a gated Query with a new constant may make: 251 bytes measured (the above, and the cache of texts' miss),
     * where it made 314 when the skeleton key made a lexer for each text.
     */
    private static final double NEW_CONSTANT_QUERY_BYTES = 290;

    @Test
    void preparedStatementsAreRelayedWithoutAnObjectPerMessage() throws Exception {
        try (EmbeddedSession session = new EmbeddedSession(new ImmediateAdmission())) {
            assertThat(preparedRunBytes(session)).as("bytes allocated per Bind, Describe, Execute, Sync and their answers")
                    .isLessThan(MAX_BYTES_PER_TRANSACTION);
        }
    }

    /**
     * With gateways on, a prepared statement admission let bypass is not asked again at its next Binds, and its name
     * is not decoded again, nor its unread text made again, at each Bind (the Bind record, a slice, two Strings and
     * their bytes, the SentText: about 150 bytes per run). The Bind is still an
     * {@link io.memogate.proxy.session.OwnedFrame}: its decision could come on another thread.
     */
    @Test
    void aBypassingPreparedStatementIsBoundWithoutDecodingItsNameAgain() throws Exception {
        AtomicInteger asked = new AtomicInteger();
        AdmissionHook bypassing = request -> {
            asked.incrementAndGet();
            return Admission.BYPASS;
        };
        try (EmbeddedSession session = new EmbeddedSession(bypassing)) {
            double perTransaction = preparedRunBytes(session);
            assertThat(asked).as("admission asked at the first Bind only").hasValue(1);
            assertThat(perTransaction).as("bytes allocated per Bind, Describe, Execute, Sync and their answers")
                    .isLessThan(BYPASSED_BIND_BYTES);
        }
    }

    /**
     * Prepares pgbench's statement, then runs it as libpq's PQexecPrepared does, answered as the server answers: the
     * bytes the session allocated per run once warmed up.
     */
    private static double preparedRunBytes(EmbeddedSession session) throws Exception {
        session.send(frame(new Parse("P_0", "SELECT abalance FROM pgbench_accounts WHERE aid = $1", List.of())));
        session.clientReadComplete();
        assertThat(discard(session.server)).isEqualTo(1);
        List<ByteBuf> batch = List.of(frame(new Bind("", "P_0")), frame(new Describe(StatementOrPortal.PORTAL, "")),
                frame(new Execute("", 0)), frame(Sync.INSTANCE));
        ByteBuf answer = run(BindComplete.INSTANCE, RowDescription.ofText(List.of("abalance")),
                new DataRow(List.of("0")), new CommandComplete("SELECT 1"), new ReadyForQuery(TransactionStatus.IDLE));
        session.answer(Unpooled.buffer().writeByte('1').writeInt(4)); // ParseComplete
        assertThat(discard(session.client)).isEqualTo(1);
        try {
            return bytesPerTransaction(session, batch, answer);
        } finally {
            batch.forEach(ByteBuf::release);
            answer.release();
        }
    }

    @Test
    void simpleQueriesAreRelayedWithoutAnObjectPerMessage() throws Exception {
        try (EmbeddedSession session = new EmbeddedSession(new ImmediateAdmission())) {
            assertThat(simpleQueryBytes(session)).as("bytes allocated per Query and its answers")
                    .isLessThan(MAX_BYTES_PER_TRANSACTION);
        }
    }

    /**
     * With the gateways on, each simple Query is read (its text made a String), estimated (a cache hit: the
     * statement of one relation bypasses) and its outcome noted, and nothing more: the settings a statement could
     * be degraded to are made once per session, not for each Query.
     */
    @Test
    void aGatedSimpleQueryMakesItsTextAndLittleElse() throws Exception {
        Gateways gateways = new LocalGateways(GatewaySettings.defaults(2), 1L << 30, System::nanoTime,
                (task, delayNanos) -> () -> { }, GatewayListener.NONE);
        GatedAdmission gated = new GatedAdmission(new CompileEstimator(), gateways, estimate -> { }, closed -> { });
        try (EmbeddedSession session = new EmbeddedSession(gated)) {
            assertThat(simpleQueryBytes(session)).as("bytes allocated per gated Query and its answers")
                    .isLessThan(GATED_QUERY_BYTES);
        }
    }

    /**
     * pgbench -S's Query as pgbench sends it, a new {@code aid} each time: every text is new to the estimator's cache
     * of texts, so each is reduced to its skeleton (the text with its constants marked), the key under which the one
     * statement is known. That reduction lexes each constant, with a lexer the calling thread keeps.
     */
    @Test
    void aGatedQueryWithANewConstantEachTimeMakesItsTextAndLittleElse() throws Exception {
        Gateways gateways = new LocalGateways(GatewaySettings.defaults(2), 1L << 30, System::nanoTime,
                (task, delayNanos) -> () -> { }, GatewayListener.NONE);
        GatedAdmission gated = new GatedAdmission(new CompileEstimator(), gateways, estimate -> { }, closed -> { });
        ByteBuf[] queries = new ByteBuf[WARM_UP + TRANSACTIONS];
        for (int i = 0; i < queries.length; i++) {
            queries[i] = frame(new Query("SELECT abalance FROM pgbench_accounts WHERE aid = " + (i + 1) + ";"));
        }
        ByteBuf answer = run(RowDescription.ofText(List.of("abalance")), new DataRow(List.of("0")),
                new CommandComplete("SELECT 1"), new ReadyForQuery(TransactionStatus.IDLE));
        try (EmbeddedSession session = new EmbeddedSession(gated)) {
            assertThat(bytesPerTransaction(session, queries, answer))
                    .as("bytes allocated per gated Query with a new constant, and its answers")
                    .isLessThan(NEW_CONSTANT_QUERY_BYTES);
        } finally {
            for (ByteBuf query : queries) {
                query.release();
            }
            answer.release();
        }
    }

    /** pgbench -S's Query and its answer, over and over: the bytes the session allocated per Query. */
    private static double simpleQueryBytes(EmbeddedSession session) throws Exception {
        List<ByteBuf> batch = List.of(frame(new Query("SELECT abalance FROM pgbench_accounts WHERE aid = 1")));
        ByteBuf answer = run(RowDescription.ofText(List.of("abalance")), new DataRow(List.of("0")),
                new CommandComplete("SELECT 1"), new ReadyForQuery(TransactionStatus.IDLE));
        try {
            return bytesPerTransaction(session, batch, answer);
        } finally {
            batch.forEach(ByteBuf::release);
            answer.release();
        }
    }

    /**
     * Sends {@code batch} as one read of the client, then {@code answer} as one read of the server, over and over:
     * the bytes the session allocated per transaction once warmed up.
     */
    private static double bytesPerTransaction(EmbeddedSession session, List<ByteBuf> batch, ByteBuf answer)
            throws Exception {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled(),
                "this JVM counts no allocated bytes per thread");
        FutureTask<Long> measured = new FutureTask<>(() -> {
            transactions(session, batch, answer, WARM_UP);
            long before = threads.getCurrentThreadAllocatedBytes();
            transactions(session, batch, answer, TRANSACTIONS);
            return threads.getCurrentThreadAllocatedBytes() - before;
        });
        // On a thread of Netty's own, as the event loops' are: Netty reuses its objects for each write there.
        new FastThreadLocalThread(measured, "relay").start();
        return (double) measured.get() / TRANSACTIONS;
    }

    /** As {@link #bytesPerTransaction(EmbeddedSession, List, ByteBuf)}, but the client sends {@code queries[i]} at i. */
    private static double bytesPerTransaction(EmbeddedSession session, ByteBuf[] queries, ByteBuf answer)
            throws Exception {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled(),
                "this JVM counts no allocated bytes per thread");
        FutureTask<Long> measured = new FutureTask<>(() -> {
            queries(session, queries, answer, 0, WARM_UP);
            long before = threads.getCurrentThreadAllocatedBytes();
            queries(session, queries, answer, WARM_UP, TRANSACTIONS);
            return threads.getCurrentThreadAllocatedBytes() - before;
        });
        new FastThreadLocalThread(measured, "relay").start();
        return (double) measured.get() / TRANSACTIONS;
    }

    private static void queries(EmbeddedSession session, ByteBuf[] queries, ByteBuf answer, int from, int count) {
        for (int i = from; i < from + count; i++) {
            session.send(queries[i].retain());
            session.clientReadComplete();
            int toServer = discard(session.server);
            session.answer(answer.retain());
            if (toServer != 1 || discard(session.client) != 1) {
                throw new AssertionError("query " + i + " was not relayed both ways");
            }
        }
    }

    /** Allocates nothing of its own, so that what is measured is the session's (no iterator, no assertion object). */
    private static void transactions(EmbeddedSession session, List<ByteBuf> batch, ByteBuf answer, int count) {
        for (int i = 0; i < count; i++) {
            for (int m = 0; m < batch.size(); m++) {
                session.send(batch.get(m).retain()); // the same frame each time: the session's reference
            }
            session.clientReadComplete();
            // Each message to the server, each answer back: a session that dropped them would allocate nothing too.
            int toServer = discard(session.server);
            session.answer(answer.retain());
            if (toServer != batch.size() || discard(session.client) != 1) {
                throw new AssertionError("transaction " + i + " was not relayed both ways");
            }
        }
    }

    /** Releases what the session wrote to {@code channel}; returns how many buffers it wrote. */
    private static int discard(EmbeddedChannel channel) {
        int written = 0;
        for (Object out = channel.readOutbound(); out != null; out = channel.readOutbound()) {
            ReferenceCountUtil.release(out);
            written++;
        }
        return written;
    }

    private static ByteBuf run(BackendMessage... messages) {
        ByteBuf run = Unpooled.buffer();
        for (BackendMessage message : messages) {
            message.encode(run);
        }
        return run;
    }
}

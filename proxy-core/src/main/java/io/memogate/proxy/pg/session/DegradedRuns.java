package io.memogate.proxy.pg.session;

import io.memogate.proxy.admission.Degraded;
import io.memogate.proxy.pg.message.backend.ErrorResponse;
import io.memogate.proxy.pg.message.backend.PgErrors;
import io.memogate.proxy.pg.message.backend.ReadyForQuery;
import io.memogate.proxy.pg.message.backend.ReadyForQuery.TransactionStatus;
import io.memogate.proxy.pg.message.frontend.Query;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.util.ArrayDeque;
import java.util.Map;

/**
 * Simple-protocol statements run under tighter planner settings than their session's ({@link Degraded}), and
 * the server's answers to the proxy's own messages around them, which the client never sees.
 *
 * <p>A degraded statement is sent between two Queries of the proxy's: {@code BEGIN; SET LOCAL ...} before it and
 * {@code COMMIT} after it, in one write, so that nothing the client sends after it can come between. The
 * settings so last until the end of that transaction block and no longer: whatever becomes of the statement
 * (an error, a cancel), its COMMIT (answered ROLLBACK after an error) ends the block and PostgreSQL restores
 * the session's own values, exactly, whatever set them (a role's default, the startup packet, a SET, a routine's
 * set_config); a connection lost mid-way takes the block with it. Only a statement that runs the same in a
 * block as alone is degraded ({@link io.memogate.proxy.pg.admission.DegradableText#mayDegrade}), outside any
 * block of the client's, with nothing of the session's in flight, so that the first answers the server sends
 * next are to the proxy's BEGIN.
 *
 * <p>Towards the client: the answers to the BEGIN, up to its ReadyForQuery, are dropped, and that ReadyForQuery
 * becomes the one NOTICE that says what was changed and why; the statement's own answers pass, its
 * ReadyForQuery saying idle ('I', as outside a block) in place of the block's status; the COMMIT's answers are
 * dropped. Should the BEGIN fail (a cancel meant for the statement that reached the server before it), the statement
 * then fails with 25P02 in the block the failure aborted: the client gets the BEGIN's error in its place, which is
 * what it would have got had the cancel reached its statement, and no notice. A FATAL passes whatever it answers.
 * Used on the session's event loop only.
 */
final class DegradedRuns {

    private enum Phase { OWN_BEGIN, CLIENTS_STATEMENT, OWN_COMMIT }

    private record Step(Phase phase, Degraded degraded) {}

    private static final String END = "commit";

    private final ArrayDeque<Step> expected = new ArrayDeque<>();
    /** The error that failed the proxy's BEGIN, to be shown in place of the statement's; null when none did. */
    private ErrorResponse beginFailure;

    /** Nothing of the proxy's own is in flight: the server's next answers are to what the client sent. */
    boolean idle() {
        return expected.isEmpty();
    }

    /** What to send the server in place of the client's {@code query}, which it takes over. */
    ByteBuf wrap(ByteBuf query, Degraded degraded, ByteBufAllocator alloc) {
        ByteBuf out = alloc.buffer();
        new Query(begin(degraded)).encode(out);
        out.writeBytes(query, query.readerIndex(), query.readableBytes());
        query.release();
        new Query(END).encode(out);
        expected.add(new Step(Phase.OWN_BEGIN, degraded));
        expected.add(new Step(Phase.CLIENTS_STATEMENT, degraded));
        expected.add(new Step(Phase.OWN_COMMIT, degraded));
        return out;
    }

    static String begin(Degraded degraded) {
        StringBuilder sql = new StringBuilder("begin");
        for (Map.Entry<String, String> setting : degraded.degradation().settings().entrySet()) {
            sql.append("; set local ").append(setting.getKey()).append(" = ").append(setting.getValue());
        }
        return sql.toString();
    }

    /**
     * One of the server's messages, before the session looks at it: null to let it pass (the client's), or what
     * the client gets in its place (an empty buffer drops it).
     */
    ByteBuf message(byte type, ByteBuf buf, int index, int length, ByteBufAllocator alloc) {
        Step step = expected.peekFirst();
        if (step == null) {
            return null;
        }
        boolean cycleEnds = type == ReadyForQuery.TYPE;
        if (cycleEnds) {
            expected.pollFirst();
        }
        ErrorResponse error = type == ErrorResponse.TYPE ? ErrorResponse.decode(buf.slice(index, 1 + length)) : null;
        if (error != null && error.endsSession() && step.phase() != Phase.CLIENTS_STATEMENT) {
            return null; // a FATAL (the server shutting down, a terminated process) ends the session as any other
        }
        return switch (step.phase()) {
            case OWN_BEGIN -> {
                if (error != null) {
                    beginFailure = error;
                }
                // The statement did not run degraded when the block failed: no notice then.
                yield cycleEnds && beginFailure == null ? notice(step.degraded(), alloc) : Unpooled.EMPTY_BUFFER;
            }
            case CLIENTS_STATEMENT -> {
                if (cycleEnds) {
                    buf.setByte(index + 5, TransactionStatus.IDLE.code()); // as the statement would leave it alone
                    beginFailure = null;
                }
                yield null; // the session sees the statement's answers as any other's ({@link #inPlaceOfError})
            }
            case OWN_COMMIT -> Unpooled.EMPTY_BUFFER;
        };
    }

    /**
     * What the client gets in place of an error of the statement's: the error that failed the proxy's BEGIN, when
     * one did (the statement's is then only 25P02); null for the statement's own.
     */
    ErrorResponse inPlaceOfError() {
        Step step = expected.peekFirst();
        return step != null && step.phase() == Phase.CLIENTS_STATEMENT ? beginFailure : null;
    }

    private static ByteBuf notice(Degraded degraded, ByteBufAllocator alloc) {
        ByteBuf out = alloc.buffer();
        PgErrors.degradedNotice(degraded).encode(out);
        return out;
    }
}

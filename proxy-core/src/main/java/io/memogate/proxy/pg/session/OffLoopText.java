package io.memogate.proxy.pg.session;

import io.memogate.proxy.admission.AdmissionSupport;
import io.memogate.proxy.admission.GatedAdmission;
import io.memogate.proxy.pg.message.MalformedMessageException;
import io.memogate.proxy.pg.message.backend.PgErrors;
import io.memogate.proxy.session.LoopHandoff;
import io.memogate.proxy.session.OwnedFrame;
import io.netty.buffer.ByteBuf;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Statement texts of {@link GatedAdmission#OFF_LOOP_CHARS} bytes or more, decoded and read off the session's
 * event loop ({@link AdmissionSupport#textReader}), which every other session on it would otherwise wait
 * through: for a 64 MiB text 30-90 ms to decode and 80-180 ms to scan for SET and PREPARE
 * (bench/log/long-queries.md, "A 64 MiB Query: what the other sessions waited for"), a second more to lex one that holds such a word. That is a simple Query's text, a Parse's
 * (decoded and scanned once, for all its Binds, and for the names of the routines that set as its session knows
 * them), and a long prepared statement's at a Bind when it may change the session (lexed, as a Query's is) or a
 * catalog read since its Parse brought other routines that set (scanned for their names).
 *
 * <p>The session holds while a text is read, as while a statement waits for admission, so what the client
 * sends after it stays behind it; the result is taken on the loop, in order. A cancel that comes meanwhile
 * ({@link #cancel}) is kept: the statement is refused with 57014 once read, as one withdrawn from a queue,
 * since the server has not seen it and a cancel sent there would be lost. One text at a time; used on the
 * session's event loop only.
 */
final class OffLoopText {

    /** What becomes of a statement once its text is read, on the event loop. */
    interface Outcome<T> {

        /** The text was read: the statement goes on with what was read of it. */
        void read(OwnedFrame frame, T text);

        /** A cancel came while it was read: the statement is refused in its place. */
        void cancelled(OwnedFrame frame);
    }

    private static final Logger log = LoggerFactory.getLogger(OffLoopText.class);

    private final PgSession session;
    private final LoopHandoff handoff;
    private boolean reading;
    private boolean cancelled;

    OffLoopText(PgSession session, LoopHandoff handoff) {
        this.session = session;
        this.handoff = handoff;
    }

    /** A text is being read: the session holds, its statement is in no queue yet. */
    boolean reading() {
        return reading;
    }

    /** A cancel for the statement: true when its text is being read, which then refuses it once read. */
    boolean cancel() {
        cancelled |= reading;
        return reading;
    }

    /**
     * Reads {@code frame} with {@code read} off the loop, then gives {@code outcome} the frame and what was read,
     * on the loop, unless the session ended meanwhile, the frame turned out malformed (the client broke the
     * protocol) or the read failed (the session ends with XX000).
     *
     * @param what the read, for the log and the client's error ("reading a query text")
     */
    <T> void read(OwnedFrame frame, String what, Function<ByteBuf, T> read, Outcome<T> outcome) {
        reading = true;
        cancelled = false;
        ByteBuf bytes = frame.peek(); // read there while the loop leaves it alone, until the answer is in
        CompletableFuture.supplyAsync(() -> read.apply(bytes), session.server.support().textReader())
                .whenComplete((text, failure) -> handoff.run(what,
                        () -> done(frame, what, text, failure, outcome), frame::release));
    }

    private <T> void done(OwnedFrame frame, String what, T text, Throwable failure, Outcome<T> outcome) {
        reading = false;
        if (session.state == PgSession.State.CLOSED) {
            frame.release();
            return;
        }
        if (cancelled) {
            outcome.cancelled(frame);
            return;
        }
        Throwable cause = failure instanceof CompletionException wrapped && wrapped.getCause() != null
                ? wrapped.getCause() : failure;
        if (cause instanceof MalformedMessageException malformed) {
            frame.release();
            session.protocolViolation(malformed.getMessage());
        } else if (cause != null) {
            frame.release();
            log.error("{} of {} failed", what, session.info, cause);
            session.sendFatalAndClose(PgErrors.internal(what + " failed: " + cause));
        } else {
            outcome.read(frame, text);
        }
    }
}

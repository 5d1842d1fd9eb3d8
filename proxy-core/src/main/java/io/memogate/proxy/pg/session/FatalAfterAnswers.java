package io.memogate.proxy.pg.session;

import io.memogate.proxy.pg.codec.ClientMessageDecoder;
import io.memogate.proxy.pg.message.backend.ErrorResponse;

/**
 * A client that broke the protocol while the server still owed it answers. PostgreSQL reads a client's
 * messages in order and answers each before it reads the next, so a client that pipelined whole
 * statements (Queries, batches up to their Sync) before a bad message gets their answers first; a client
 * that retries what it was not answered for must not run committed statements twice. So the FATAL waits
 * for those answers, which are relayed as they come: what the client sends meanwhile is read and dropped
 * (a {@link DroppedInput} replaces its framer) and nothing more reaches the server.
 *
 * <p>The statements may not have reached the server yet: held for admission, or while a long text is read
 * ({@link AdmissionFlow}), with what the client sent after them queued behind. Those came before the bad
 * message, so they go on as if it had not come, and its FATAL takes its place behind them ({@link #behindHeld}).
 *
 * <p>Not waited for: a batch without its Sync (it would never end; closing rolls it back, as the FATAL
 * does on PostgreSQL), and a COPY FROM STDIN whose data the client had not ended (the server answers it only
 * after the data's end, which will not come; PostgreSQL reading that data answers the bad message at once).
 * Used on the session's event loop only.
 */
final class FatalAfterAnswers {

    private final PgSession session;
    private final ReleaseTracker tracker;
    private boolean clientStreamBroken;
    /** The FATAL to send once the server has caught up; null once on its way. */
    private ErrorResponse fatal;
    /** A bad message read while statements sent before it were held: what was wrong, and its FATAL. */
    private String heldWhat;
    private ErrorResponse heldFatal;

    FatalAfterAnswers(PgSession session, ReleaseTracker tracker) {
        this.session = session;
        this.tracker = tracker;
    }

    /**
     * The client broke the protocol and its FATAL is coming: what it sends now is dropped, and so are its
     * messages that were queued behind held statements but came after the bad one.
     */
    boolean clientStreamBroken() {
        return clientStreamBroken;
    }

    /** The client sent a bad message: what it sends after it is dropped unread, whatever is still queued before. */
    boolean inputEnded() {
        return clientStreamBroken || heldFatal != null;
    }

    /**
     * Takes {@code fatal} to send when the server has answered what came before it, if it still owes
     * such answers; false when the FATAL should go now.
     */
    boolean deferred(ErrorResponse fatal) {
        if (!tracker.owesReadyForQuery() || tracker.copyingIn() || !session.client.isActive()) {
            return false;
        }
        clientStreamBroken = true;
        this.fatal = fatal;
        dropInput();
        session.backend.flush();
        return true;
    }

    /**
     * The client broke the protocol behind statements it sent whole before, which are held: {@code fatal} waits
     * until they are handled ({@link #heldHandled}); what the client sends from now on is dropped.
     */
    void behindHeld(String what, ErrorResponse fatal) {
        heldWhat = what;
        heldFatal = fatal;
        dropInput();
    }

    /**
     * What was held when the client broke the protocol has been handled, forwarded or refused: the bad message's
     * turn, as {@link PgSession#protocolViolation} (which waits for the answers that are still owed).
     */
    void heldHandled() {
        if (heldFatal != null) {
            ErrorResponse sending = heldFatal;
            heldFatal = null;
            session.protocolViolation(heldWhat, sending);
        }
    }

    /** Input from now on is read and dropped, not framed: the bytes after a bad message are no messages. */
    private void dropInput() {
        if (session.client.pipeline().get(ClientMessageDecoder.class) != null) {
            session.client.pipeline().replace(ClientMessageDecoder.class, "framer", new DroppedInput());
        }
    }

    /**
     * A ReadyForQuery left the server owing nothing, or a CopyInResponse has it wait for COPY data that a
     * client whose stream broke will never end: the FATAL waiting for that goes.
     */
    void serverCaughtUp() {
        if (fatal != null) {
            ErrorResponse sending = fatal;
            fatal = null;
            // After the ReadyForQuery being inspected has been relayed: tasks run after the current read.
            session.client.eventLoop().execute(() -> {
                if (tracker.owesReadyForQuery() && !tracker.copyingIn()) {
                    fatal = sending; // a row of the COPY failed meanwhile, ending it: its ReadyForQuery comes next
                    return;
                }
                session.sendFatalAndClose(sending);
            });
        }
    }
}

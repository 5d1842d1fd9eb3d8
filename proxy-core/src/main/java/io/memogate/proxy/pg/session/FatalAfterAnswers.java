package io.memogate.proxy.pg.session;

import io.memogate.proxy.admission.SessionInfo;
import io.memogate.proxy.pg.codec.ClientMessageDecoder;
import io.memogate.proxy.pg.message.backend.ErrorResponse;
import io.memogate.proxy.pg.message.frontend.Terminate;
import io.memogate.proxy.session.DroppedInput;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.socket.DuplexChannel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 *
 * <p>After a COPY that failed, the Syncs the client sent among its data may or may not be answered, and no
 * message says which ({@link ReleaseTracker#mayAnswerUnawaited}): what the server still owes is not known. Then
 * the server is ended instead of awaited: a Terminate, then the end of its input (a server skipping to a Sync
 * ignores a Terminate, not the end), so that it sends what it still owes, rolls back what is open and closes, as
 * PostgreSQL's FATAL would; the FATAL goes at the close. Used on the session's event loop only.
 */
final class FatalAfterAnswers {

    private static final Logger log = LoggerFactory.getLogger(FatalAfterAnswers.class);

    private final PgSession session;
    private final ReleaseTracker tracker;
    private boolean clientStreamBroken;
    /** The FATAL to send once the server has caught up; null once on its way. */
    private ErrorResponse fatal;
    /** The FATAL to send once the server, told to end, has closed the connection. */
    private ErrorResponse atServerClose;
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
     * The client broke the protocol in READY state: {@code fatal} takes its turn behind the statements sent before
     * the bad message, held ones first; false when there are none to wait for and the FATAL should go now.
     */
    boolean inTurn(String what, ErrorResponse fatal, boolean statementHeld) {
        if (statementHeld) {
            log.info("closing client {} once what it sent before is admitted and answered: {}", client(), what);
            behindHeld(what, fatal);
            return true;
        }
        if (deferred(fatal)) {
            log.info("closing client {} once the server has answered what it sent before: {}", client(), what);
            return true;
        }
        return false;
    }

    private String client() {
        return SessionInfo.describe(session.client.remoteAddress());
    }

    /**
     * Takes {@code fatal} to send when the server has answered what came before it, if it still owes
     * such answers; false when the FATAL should go now.
     */
    private boolean deferred(ErrorResponse fatal) {
        if (!awaitsServer() || !session.client.isActive()) {
            return false;
        }
        clientStreamBroken = true;
        dropInput();
        session.backend().flush();
        if (tracker.mayAnswerUnawaited()) {
            endServerThen(fatal); // no count says when the server is done
        } else {
            this.fatal = fatal;
        }
        return true;
    }

    /**
     * The client broke the protocol behind statements it sent whole before, which are held: {@code fatal} waits
     * until they are handled ({@link #heldHandled}); what the client sends from now on is dropped.
     */
    private void behindHeld(String what, ErrorResponse fatal) {
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
                } else if (tracker.mayAnswerUnawaited() && !tracker.copyingIn()) {
                    endServerThen(sending);
                } else {
                    session.sendFatalAndClose(sending);
                }
            });
        }
    }

    /** The server connection closed: true when that was the end this waited for, and the FATAL has gone. */
    boolean serverClosed() {
        if (atServerClose == null) {
            return false;
        }
        ErrorResponse sending = atServerClose;
        atServerClose = null;
        session.sendFatalAndClose(sending);
        return true;
    }

    private boolean awaitsServer() {
        return (tracker.owesReadyForQuery() || tracker.mayAnswerUnawaited()) && !tracker.copyingIn();
    }

    private void endServerThen(ErrorResponse sending) {
        atServerClose = sending;
        session.sessionEndExpected();
        Channel server = session.backend();
        ByteBuf terminate = server.alloc().buffer(5);
        Terminate.INSTANCE.encode(terminate);
        server.writeAndFlush(terminate).addListener((ChannelFutureListener) written -> {
            if (written.isSuccess() && server instanceof DuplexChannel duplex) {
                duplex.shutdownOutput();
            } else {
                server.close();
            }
        });
    }
}

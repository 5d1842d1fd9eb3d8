package io.memogate.proxy.pg.session;

import io.memogate.proxy.pg.codec.ClientMessageDecoder;
import io.netty.buffer.ByteBuf;

/**
 * The rest of a long Bind, CopyData or FunctionCall relayed in parts ({@link ClientMessageDecoder}): after its
 * head, the next frames are its parts, not messages. They follow the head to the server, or are dropped with a
 * refused statement, whose stand-in took its place. Used on the session's event loop only.
 */
final class MessageParts {

    private final PgSession session;
    /** Sends the server a Flush. */
    private final Runnable flushServer;
    /** Bytes still to come of the message. */
    private int bytesToCome;
    /** A Flush waits for the last part ({@link #flushAfter}). */
    private boolean flushAfterLast;
    /** The parts belong to a refused statement: they are dropped. */
    private boolean dropping;

    MessageParts(PgSession session, Runnable flushServer) {
        this.session = session;
        this.flushServer = flushServer;
    }

    /** A message's head, or a whole message: the frames after it are its parts while some of it is to come. */
    void head(ByteBuf frame) {
        bytesToCome = ClientMessageDecoder.missingBytes(frame);
    }

    /** Part of a long message has been relayed and the rest is still to come. */
    boolean toCome() {
        return bytesToCome > 0;
    }

    /** The next part: forwarded after its head, or dropped with it. */
    void relay(ByteBuf part) {
        bytesToCome -= part.readableBytes();
        if (dropping) {
            part.release();
            dropping = bytesToCome > 0;
        } else {
            session.forwardToBackend(part);
        }
        if (bytesToCome <= 0 && flushAfterLast) {
            flushAfterLast = false;
            flushServer.run();
        }
    }

    /** The message was refused: the parts still to come are dropped. */
    void dropRest() {
        dropping = bytesToCome > 0;
    }

    /** Sends the server a Flush behind the whole message: now, or after its last part (not among them: data). */
    void flushAfter() {
        if (bytesToCome > 0) {
            flushAfterLast = true;
        } else {
            flushServer.run();
        }
    }
}

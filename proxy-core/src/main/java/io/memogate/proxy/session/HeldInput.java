package io.memogate.proxy.session;

import io.netty.buffer.ByteBuf;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayDeque;

/**
 * A session's client frames, handed on in the order they came, and the one queue they wait in while
 * something holds the client's input: the server connection being opened or replaced, a statement waiting
 * for admission ({@link StatementAdmission}) or for its text to be read, a command the proxy answers itself.
 * Whatever held the input ends by asking for {@link #replay}, which hands the queued frames on until
 * something holds again. Owns the queue; the wing's {@link Reader} says when input holds and where a frame
 * goes. Used on the session's event loop only.
 */
public final class HeldInput {

    /** The wing's side: where a frame goes in the session's present state, and when input waits. */
    public interface Reader {

        /** The client broke its protocol earlier: what it sends after is dropped unread. */
        boolean inputEnded();

        /** Whether what the client sends now waits. */
        boolean holds();

        /** The session has ended: what still waits is dropped. */
        boolean ended();

        /** A frame handled now: the reader owns it. */
        void dispatch(ByteBuf frame);
    }

    private final Reader reader;
    private final ArrayDeque<ByteBuf> held = new ArrayDeque<>();

    public HeldInput(Reader reader) {
        this.reader = reader;
    }

    public void frame(ByteBuf frame) {
        if (reader.inputEnded()) {
            frame.release(); // after the message that broke the protocol: the server would not read it
            return;
        }
        if (!held.isEmpty() || reader.holds()) {
            held.add(frame);
        } else {
            reader.dispatch(frame);
        }
    }

    /**
     * The queued frames, handled in order until something holds the input again. Frames already queued are
     * handled even after a bad message closed the input: they came before it.
     */
    public void replay() {
        while (!held.isEmpty() && !reader.holds() && !reader.ended()) {
            reader.dispatch(held.poll());
        }
    }

    /** A frame the reader took but cannot handle yet: first in line when the input is replayed. */
    public void holdFirst(ByteBuf frame) {
        held.addFirst(frame);
    }

    public boolean nothingHeld() {
        return held.isEmpty();
    }

    /** The session ended: what still waits is dropped. */
    public void closed() {
        while (!held.isEmpty()) {
            ReferenceCountUtil.release(held.poll());
        }
    }
}

package io.memogate.proxy.pg.session;

import io.netty.buffer.ByteBuf;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayDeque;

/**
 * Where a session's client frames go, in the order they came: to the phase its state names, or into the one
 * queue they wait in while something holds the client's input: the server connection being opened
 * (CONNECTING) or replaced (RECYCLING), a statement waiting for admission or for its text to be read, a
 * console command running. Whatever held the input ends by asking for {@link #replay}, which hands the queued
 * frames on until something holds again. Owns the queue; reads the session's state, writes none of it.
 */
final class ClientInput {

    private final PgSession session;
    private final ArrayDeque<ByteBuf> held = new ArrayDeque<>();

    ClientInput(PgSession session) {
        this.session = session;
    }

    void frame(ByteBuf frame) {
        if (session.fatalAfterAnswers.inputEnded()) {
            frame.release(); // after the message that broke the protocol: PostgreSQL would not read it
            return;
        }
        if (!held.isEmpty() || holds()) {
            held.add(frame);
        } else {
            dispatch(frame);
        }
    }

    /**
     * The queued frames, handled in order until something holds the input again. Frames already queued are
     * handled even after a bad message closed the input: they came before it.
     */
    void replay() {
        while (!held.isEmpty() && !holds() && session.state != PgSession.State.CLOSED) {
            dispatch(held.poll());
        }
    }

    boolean nothingHeld() {
        return held.isEmpty();
    }

    /** The session ended: what still waits is dropped. */
    void closed() {
        while (!held.isEmpty()) {
            ReferenceCountUtil.release(held.poll());
        }
    }

    /** Whether what the client sends now waits. */
    private boolean holds() {
        return switch (session.state) {
            case CONNECTING, RECYCLING -> true;
            case READY -> session.admission.holding();
            case CONSOLE -> session.console.busy();
            case STARTUP, AUTHENTICATING, CLOSED -> false;
        };
    }

    private void dispatch(ByteBuf frame) {
        switch (session.state) {
            case STARTUP -> session.startup.packet(frame);
            case AUTHENTICATING -> session.startup.clientFrame(frame);
            case CONSOLE -> session.console.frame(frame);
            case READY -> {
                if (session.recycler.clientFrameWhileQuiet(frame)) {
                    held.addFirst(frame); // first in line once the server connection is replaced
                } else {
                    session.admission.frame(frame);
                }
            }
            case CONNECTING, RECYCLING -> held.addFirst(frame); // not reached: these states hold all input
            case CLOSED -> frame.release();
        }
    }
}

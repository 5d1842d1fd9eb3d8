package io.memogate.proxy.pg.session;

import io.memogate.proxy.session.HeldInput;
import io.netty.buffer.ByteBuf;

/**
 * Where a PostgreSQL session's client frames go: to the phase its state names. The core's {@link HeldInput}
 * keeps them in order and queues them while the input holds: the server connection being opened
 * (CONNECTING) or replaced (RECYCLING), a statement waiting for admission or for its text to be read, a
 * console command running. Reads the session's state, writes none of it.
 */
final class ClientInput implements HeldInput.Reader {

    private final PgSession session;
    private final HeldInput queue = new HeldInput(this);

    ClientInput(PgSession session) {
        this.session = session;
    }

    HeldInput queue() {
        return queue;
    }

    @Override
    public boolean inputEnded() {
        return session.fatalAfterAnswers.inputEnded();
    }

    @Override
    public boolean holds() {
        return switch (session.state) {
            case CONNECTING, RECYCLING -> true;
            case READY -> session.admission.holding();
            case CONSOLE -> session.console.busy();
            case STARTUP, AUTHENTICATING, CLOSED -> false;
        };
    }

    @Override
    public boolean ended() {
        return session.state == PgSession.State.CLOSED;
    }

    @Override
    public void dispatch(ByteBuf frame) {
        switch (session.state) {
            case STARTUP -> session.startup.packet(frame);
            case AUTHENTICATING -> session.startup.clientFrame(frame);
            case CONSOLE -> session.console.frame(frame);
            case READY -> {
                if (session.recycler.clientFrameWhileQuiet(frame)) {
                    queue.holdFirst(frame); // first in line once the server connection is replaced
                } else {
                    session.admission.frame(frame);
                }
            }
            case CONNECTING, RECYCLING -> queue.holdFirst(frame); // not reached: these states hold all input
            case CLOSED -> frame.release();
        }
    }
}

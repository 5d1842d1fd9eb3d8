package io.memogate.proxy.tds.session;

import io.memogate.proxy.session.HeldInput;
import io.memogate.proxy.session.SessionLegs;
import io.memogate.proxy.tds.session.TdsSession.State;
import io.netty.buffer.ByteBuf;

/**
 * When each leg of a {@link TdsSession} is read, and where a client message goes, by the session's state: the
 * core's {@link SessionLegs} and {@link HeldInput} ask here. It reads the session's state and writes none.
 */
final class Pacing implements SessionLegs.Pace, HeldInput.Reader {

    private final TdsSession session;

    Pacing(TdsSession session) {
        this.session = session;
    }

    @Override
    public SessionLegs.ClientRead clientRead() {
        return switch (session.state) {
            case PRELOGIN, LOGIN -> SessionLegs.ClientRead.WHEN_SERVER_WRITABLE;
            // While a batch waits, only an ATTENTION is expected: read on while nothing else came.
            case READY -> session.flow.holding() ? (session.input.nothingHeld() ? SessionLegs.ClientRead.NOW
                    : SessionLegs.ClientRead.WAIT) : SessionLegs.ClientRead.WHEN_SERVER_WRITABLE;
            // REROUTING: the client awaits its login's answer, which the proxy is getting from the routed server.
            case CONNECTING, PRELOGIN_REPLY, SERVER_TLS, REROUTING, CLOSED -> SessionLegs.ClientRead.WAIT;
        };
    }

    @Override
    public boolean serverReadAhead() {
        return false;
    }

    @Override
    public boolean ended() {
        return session.state == State.CLOSED;
    }

    @Override
    public boolean inputEnded() {
        return false;
    }

    /** Whether what the client sends waits in the core's {@link HeldInput} (replayed by the session later). */
    @Override
    public boolean holds() {
        return switch (session.state) {
            case CONNECTING, PRELOGIN_REPLY, SERVER_TLS, REROUTING -> true;
            case READY -> session.flow.holding();
            case PRELOGIN, LOGIN, CLOSED -> false;
        };
    }

    @Override
    public void dispatch(ByteBuf message) {
        session.dispatch(message);
    }
}

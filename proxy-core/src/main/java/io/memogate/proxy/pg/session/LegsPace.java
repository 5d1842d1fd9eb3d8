package io.memogate.proxy.pg.session;

import io.memogate.proxy.session.SessionLegs;
import io.memogate.proxy.session.SessionLegs.ClientRead;

/**
 * When a PostgreSQL session's legs are read, by its state: the client while its frames are relayed and none
 * is held for admission, or while the console answers it; the server, whatever the client's pace, while a
 * recycle awaits its answer. Reads the session's state, writes none of it.
 */
final class LegsPace implements SessionLegs.Pace {

    private final PgSession session;

    LegsPace(PgSession session) {
        this.session = session;
    }

    @Override
    public ClientRead clientRead() {
        if (session.fatalAfterAnswers.inputEnded()) {
            return ClientRead.NOW; // and drop it, so that a client still writing does not block on a full socket
        }
        return switch (session.state) {
            case AUTHENTICATING, READY ->
                    session.admission.holding() ? ClientRead.WAIT : ClientRead.WHEN_SERVER_WRITABLE;
            case CONSOLE -> session.console.busy() ? ClientRead.WAIT : ClientRead.NOW;
            case STARTUP, CONNECTING, RECYCLING, CLOSED -> ClientRead.WAIT;
        };
    }

    @Override
    public boolean serverReadAhead() {
        return session.state == PgSession.State.RECYCLING;
    }

    @Override
    public boolean ended() {
        return session.state == PgSession.State.CLOSED;
    }
}

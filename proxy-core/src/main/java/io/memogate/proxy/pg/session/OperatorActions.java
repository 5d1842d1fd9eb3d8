package io.memogate.proxy.pg.session;

import java.util.Optional;

import io.memogate.proxy.pg.message.backend.PgErrors;
import io.memogate.proxy.session.OperatorCommand;
import io.memogate.proxy.session.OperatorCommand.Addressee;

/** The admin console's CANCEL and KILL as a PostgreSQL session carries them out, on its event loop. */
final class OperatorActions {

    private OperatorActions() {
    }

    /** What {@code command} did to {@code session}; empty when its server process is another (or it has none). */
    static Optional<String> apply(OperatorCommand command, PgSession session) {
        long serverPid = session.serverKey() == null ? 0 : Integer.toUnsignedLong(session.serverKey().processId());
        return command.carryOut(new Addressee(session.target.name(), serverPid,
                        session.state == PgSession.State.CLOSED, session.info),
                by -> session.sendFatalAndClose(PgErrors.terminatedByOperator(by)),
                () -> cancel(session));
    }

    /**
     * A statement queued or still being read is withdrawn here; one the server runs gets the server's cancel,
     * as the client's own would.
     */
    private static String cancel(PgSession session) {
        String who = String.valueOf(session.info);
        if (!session.admission.busy()) {
            return "nothing to cancel: the session of " + who + " is idle";
        }
        boolean reading = session.admission.readingText();
        Optional<String> where = session.admission.waitingWhere();
        if (!session.cancelNow()) {
            return "sent the server a cancel request for the statement of " + who;
        }
        return reading ? "withdrew the statement of " + who + " while its text was being read, before "
                + "admission: its client gets 57014 once the read is over, and the server never sees it"
                : "withdrew the statement of " + who + " from its queue (" + where.orElse("queued") + ")";
    }
}

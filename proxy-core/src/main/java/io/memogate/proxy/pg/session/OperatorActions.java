package io.memogate.proxy.pg.session;

import io.memogate.proxy.pg.message.backend.PgErrors;
import io.memogate.proxy.session.OperatorCommand;
import java.util.Optional;

/** The admin console's CANCEL and KILL as a PostgreSQL session carries them out, on its event loop. */
final class OperatorActions {

    private OperatorActions() {
    }

    /** What {@code command} did to {@code session}; empty when its server process is another (or it has none). */
    static Optional<String> apply(OperatorCommand command, PgSession session) {
        int serverPid = command.serverPid();
        Optional<String> backend = command.backend();
        String by = command.by();
        if (session.state == PgSession.State.CLOSED || session.serverKey() == null
                || session.serverKey().processId() != serverPid
                || backend.isPresent() && !backend.get().equals(session.target.name())) {
            return Optional.empty();
        }
        String who = String.valueOf(session.info);
        return Optional.of(switch (command.action()) {
            case FIND -> session.target.name();
            case KILL -> {
                session.sendFatalAndClose(PgErrors.terminatedByOperator(by));
                yield "terminated the session of " + who;
            }
            case CANCEL -> {
                if (!session.admission.busy()) {
                    yield "nothing to cancel: the session of " + who + " is idle";
                }
                boolean reading = session.admission.readingText();
                Optional<String> where = session.admission.waitingWhere();
                if (!session.cancelNow()) {
                    yield "sent the server a cancel request for the statement of " + who;
                }
                yield reading ? "withdrew the statement of " + who + " while its text was being read, before "
                        + "admission: its client gets 57014 once the read is over, and the server never sees it"
                        : "withdrew the statement of " + who + " from its queue (" + where.orElse("queued") + ")";
            }
        });
    }
}

package io.memogate.proxy.pg.session;

import io.memogate.proxy.pg.message.backend.PgErrors;
import java.util.Optional;

/**
 * The admin console's CANCEL and KILL, addressed by the session's server process id (what SHOW CLIENTS,
 * SHOW QUEUE and the server's pg_stat_activity show), run on the session's event loop.
 *
 * <p>CANCEL is a client's own cancel request made by the operator, with one difference that is the point:
 * a statement still queued for admission, or whose long text is still being read before it gets there, is
 * withdrawn (its client gets 57014, as after its own cancel), which the server's pg_cancel_backend cannot do,
 * since the server sees that session idle. KILL ends the session as pg_terminate_backend would: FATAL 57P01
 * to the client, and its server connection closed.
 *
 * <p>A process id is unique on one server only: sessions on two backends (two hosts, two containers) may
 * have the same one, so the console first finds the sessions a command names ({@link Action#FIND}), and
 * acts only when there is one.
 *
 * @param backend the backend the session must be on; empty: any
 * @param by who asked, for the client's message ({@code dba from 10.0.0.9:40112})
 */
public record OperatorCommand(Action action, int serverPid, Optional<String> backend, String by) {

    /** FIND changes nothing: it answers the name of the backend of each session the command names. */
    public enum Action { FIND, CANCEL, KILL }

    /** The same command, finding the sessions it names instead of acting. */
    public OperatorCommand finding() {
        return new OperatorCommand(Action.FIND, serverPid, backend, by);
    }

    /** What was done to {@code session}; empty when its server process is another (or it has none). */
    Optional<String> applyTo(PgSession session) {
        if (session.state == PgSession.State.CLOSED || session.serverKey() == null
                || session.serverKey().processId() != serverPid
                || backend.isPresent() && !backend.get().equals(session.target.name())) {
            return Optional.empty();
        }
        String who = String.valueOf(session.info);
        return Optional.of(switch (action) {
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

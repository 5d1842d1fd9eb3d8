package io.memogate.proxy.session;

import java.util.Optional;

/**
 * The admin console's CANCEL and KILL, addressed by the session's server process id (what SHOW CLIENTS,
 * SHOW QUEUE and the server's own views show), run on the session's event loop by its wing.
 *
 * <p>CANCEL is a client's own cancel request made by the operator, with one difference that is the point:
 * a statement still queued for admission, or whose long text is still being read before it gets there, is
 * withdrawn (its client gets 57014, as after its own cancel), which the server's pg_cancel_backend cannot do,
 * since the server sees that session idle. KILL ends the session as the server's own would (PostgreSQL:
 * pg_terminate_backend, FATAL 57P01 to the client), and its server connection closed.
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
}

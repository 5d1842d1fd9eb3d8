package io.memogate.proxy.session;

import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;

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

    /**
     * The session a wing asks a command about, as the command matches it.
     *
     * @param backend  the backend the session is on
     * @param serverId the id the server knows its connection by (PostgreSQL's process id, MySQL's thread id, SQL
     *                 Server's SPID), unsigned; 0 while it has none
     * @param ended    whether the session has ended
     * @param who      the session as the console reports it ({@code alice@shop from 10.0.0.7:51234})
     */
    public record Addressee(String backend, long serverId, boolean ended, Object who) {
    }

    /** The same command, finding the sessions it names instead of acting. */
    public OperatorCommand finding() {
        return new OperatorCommand(Action.FIND, serverPid, backend, by);
    }

    /**
     * What this command did to {@code session}: empty when it names another session (another server id, or
     * another backend), else what the console reports. Run on the session's event loop.
     *
     * @param terminate ends the session as the server's own kill would, telling its client who asked
     * @param cancel    withdraws what is held for admission, or says what the operator may do instead; what
     *                  happened
     */
    public Optional<String> carryOut(Addressee session, Consumer<String> terminate, Supplier<String> cancel) {
        if (session.ended() || session.serverId() == 0 || session.serverId() != Integer.toUnsignedLong(serverPid)
                || backend.isPresent() && !backend.get().equals(session.backend())) {
            return Optional.empty();
        }
        return Optional.of(switch (action) {
            case FIND -> session.backend();
            case KILL -> {
                terminate.accept(by);
                yield "terminated the session of " + session.who();
            }
            case CANCEL -> cancel.get();
        });
    }
}

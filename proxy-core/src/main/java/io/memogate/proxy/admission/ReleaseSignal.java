package io.memogate.proxy.admission;

/**
 * What the server's responses say about an admitted statement's compilation (DESIGN.md, "Admission
 * points and release points"), named for what every protocol has; each wing maps its own messages to them.
 * The session reports each signal once per statement, in order; the admission decides which one frees its
 * permits (a text of several statements keeps them until REQUEST_DONE). After a final signal the session
 * forgets the statement.
 */
public enum ReleaseSignal {
    /**
     * The server works on the statement now: a text is the oldest it has not answered, a prepared statement
     * planned while it runs was bound. Where the hold of such a statement starts.
     */
    RUNNING(false),
    /** The first answer of a statement's own (PostgreSQL: RowDescription, CommandComplete, ...): planning is over. */
    FIRST_RESPONSE(false),
    /** The prepared statement is planned (PostgreSQL: BindComplete). */
    PLANNED(true),
    /**
     * The execution of a prepared statement planned while it runs is over or paused (PostgreSQL:
     * CommandComplete, EmptyQueryResponse or PortalSuspended of its Execute): what it planned is planned.
     */
    EXECUTED(true),
    /** The server refused the statement (or one before it in the same request failed). */
    ERROR(true),
    /** The whole answer to the request that carried the statement is in (PostgreSQL: ReadyForQuery). */
    REQUEST_DONE(true),
    /** Either side went away, or the session was closed. */
    DISCONNECT(true);

    private final boolean isFinal;

    ReleaseSignal(boolean isFinal) {
        this.isFinal = isFinal;
    }

    public boolean isFinal() {
        return isFinal;
    }
}

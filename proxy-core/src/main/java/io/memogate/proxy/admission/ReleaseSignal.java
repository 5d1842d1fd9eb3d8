package io.memogate.proxy.admission;

/**
 * What the server's responses say about an admitted statement's compilation (DESIGN.md, "Admission
 * points and release points"). The session reports each signal once per statement, in order; the
 * admission decides which one frees its permits (a multi-statement query keeps them until
 * READY_FOR_QUERY). After a final signal the session forgets the statement.
 */
public enum ReleaseSignal {
    /**
     * The server works on the statement now: a simple query is the oldest it has not answered, a Bind planned
     * while it runs was bound. Where the hold of such a statement starts.
     */
    RUNNING(false),
    /** RowDescription, CommandComplete, EmptyQueryResponse or a Copy*Response: planning is over. */
    FIRST_RESPONSE(false),
    /** BindComplete: the bound statement is planned. */
    BIND_COMPLETE(true),
    /**
     * CommandComplete, EmptyQueryResponse or PortalSuspended of the Execute of a Bind planned while it runs:
     * the portal ran (or paused), so what it planned while running is planned.
     */
    EXECUTE_COMPLETE(true),
    /** ErrorResponse: the statement (or one before it in the same batch) failed. */
    ERROR(true),
    /** ReadyForQuery: the query cycle that carried the statement is over. */
    READY_FOR_QUERY(true),
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

package io.memogate.broker.gateway;

/**
 * What a server connection holds once a compile on it is over; the byte budget counts accordingly. A property
 * of the server kind (DESIGN.md, "What differs by server kind"), given to the gateways when they are built.
 */
public enum CompileMemoryRetention {

    /**
     * PostgreSQL: the planner frees its memory to malloc, which keeps it, so a backend holds its largest
     * plan's memory until it exits (DESIGN.md, "sticky"). A finished compile's estimate stays in the ledger
     * as the connection's retained memory, and a later compile on it costs only what exceeds that.
     */
    RETAINED_UNTIL_CONNECTION_ENDS,

    /**
     * A server whose compile memory goes back to the host when the compile ends (a per-statement arena
     * returned to the operating system): a finished compile leaves nothing in the ledger, and every compile
     * costs its whole estimate. A measured figure ({@link Gateways#retained}) still counts, as memory the
     * process holds.
     */
    RELEASED_AFTER_COMPILE
}

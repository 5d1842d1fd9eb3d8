package io.memogate.broker.gateway;

/**
 * What a server connection holds once a compile on it is over; the byte budget counts accordingly. A property
 * of the server kind (DESIGN.md, "What differs by server kind"), given to the gateways when they are built.
 */
public enum CompileMemoryRetention {

    /**
     * PostgreSQL: the planner frees its memory to malloc, which keeps it, so a backend holds its largest
     * plan's memory until it exits (DESIGN.md, "sticky"). A finished compile's estimate stays in the ledger
     * as the connection's retained memory, and a later compile on it costs only what exceeds that. A backend's
     * measured private memory (RssAnon, co-located) includes what malloc keeps, so it replaces the estimate.
     */
    RETAINED_UNTIL_CONNECTION_ENDS,

    /**
     * MariaDB and MySQL: the optimizer's arena is freed when the statement ends, but to malloc, whose arena for
     * the connection's thread keeps it (glibc's per-thread arenas: on MariaDB 10.11, each connection that had run
     * a 300,000-value IN list kept about 63 MiB of the server's resident memory afterwards, three of them
     * 190 MiB; bench/log/mariadb-storm.md). The ledger counts it as for {@link #RETAINED_UNTIL_CONNECTION_ENDS},
     * but what the server reports of a connection's memory counts only what is in use, not what malloc keeps:
     * such a measurement raises the connection's figure and never lowers it.
     */
    KEPT_BY_THE_ALLOCATOR,

    /**
     * A server whose compile memory goes back to the host when the compile ends (a per-statement arena
     * returned to the operating system): a finished compile leaves nothing in the ledger, and every compile
     * costs its whole estimate. A measured figure ({@link Gateways#retained}) still counts, as memory the
     * process holds.
     */
    RELEASED_AFTER_COMPILE;

    /** Whether a finished compile's estimate stays in the ledger as the connection's retained memory. */
    public boolean compilesStay() {
        return this != RELEASED_AFTER_COMPILE;
    }

    /**
     * What the ledger should count for a connection whose memory was measured at {@code measured} bytes while
     * it counts {@code counted}: the measurement, unless it cannot see what the allocator keeps.
     */
    public long afterMeasurement(long counted, long measured) {
        return this == KEPT_BY_THE_ALLOCATOR ? Math.max(counted, measured) : measured;
    }
}

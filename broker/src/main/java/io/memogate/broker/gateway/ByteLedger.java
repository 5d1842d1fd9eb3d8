package io.memogate.broker.gateway;

/**
 * The byte budget: what every server connection holds (DESIGN.md, "sticky" compile memory).
 *
 * <p>A connection counts max(retained, in flight), and a compile adds only max(0, estimate - retained) to
 * the host. What a finished compile leaves as retained is the server's {@link CompileMemoryRetention}: a
 * PostgreSQL backend keeps its high-water planner memory until it exits, and gives it back only when the
 * connection closes; a server that frees it leaves only what was measured. Guarded by the
 * {@link LocalGateways} lock.
 */
final class ByteLedger {

    /**
     * One server connection's entry. A ticket in flight keeps a reference to it, so a release after the
     * connection closed (and perhaps after the pid was reused) touches the old, closed entry only.
     */
    static final class Connection {
        final long id;
        long retained;
        /**
         * Estimates admitted on this connection and not yet released. A backend plans one statement at a
         * time, so more than one is a caller's oddity; summing them over-counts rather than under-counts.
         */
        long inFlight;
        int statements;
        boolean closed;

        Connection(long id) {
            this.id = id;
        }

        long counted() {
            return Math.max(retained, inFlight);
        }
    }

    private final ConnectionTable connections = new ConnectionTable();
    /** {@link CompileMemoryRetention#compilesStay()}, as a flag for the release path. */
    private final boolean compilesStay;
    private long target;
    private long total;
    private long inFlightBytes;
    private int inFlightStatements;

    ByteLedger(long target, CompileMemoryRetention retention) {
        this.target = target;
        this.compilesStay = retention.compilesStay();
    }

    long target() {
        return target;
    }

    void target(long bytes) {
        target = bytes;
    }

    long retainedBy(long connection) {
        Connection c = connections.get(connection);
        return c == null ? 0 : c.retained;
    }

    /** What admitting {@code estimate} on {@code connection} adds to the total. */
    long cost(long connection, long estimate) {
        Connection c = connections.get(connection);
        return Math.max(0, estimate - (c == null ? 0 : c.retained));
    }

    /**
     * Whether a statement of this cost may start now. One larger than the whole target is admitted when
     * no other gated statement is in flight: alone rather than never. Retained memory of idle
     * connections does not stop it; giving that back is the broker's job (recycling fat backends).
     */
    boolean fits(long cost) {
        // target - total, not total + cost: no overflow, and negative when a shrunk target is exceeded.
        return inFlightStatements == 0 || cost <= target - total;
    }

    /** Puts an admitted statement in flight and returns the entry its release must settle. */
    Connection charge(long connection, long estimate) {
        Connection c = connections.getOrCreate(connection);
        total -= c.counted();
        c.inFlight += estimate;
        c.statements++;
        total += c.counted();
        inFlightBytes += estimate;
        inFlightStatements++;
        return c;
    }

    /**
     * A statement's compile is over: its estimate leaves flight, and stays as retained memory where the
     * server keeps it. Nothing to do if the connection closed meanwhile: it left the ledger then.
     */
    void settle(Connection c, long estimate) {
        if (c.closed) {
            return;
        }
        total -= c.counted();
        c.inFlight -= estimate;
        c.statements--;
        if (compilesStay) {
            c.retained = Math.max(c.retained, estimate);
        }
        total += c.counted();
        inFlightBytes -= estimate;
        inFlightStatements--;
    }

    /** A measurement (RssAnon, Pss) replaces the estimate-based figure; it may be smaller. */
    void retained(long connection, long bytes) {
        Connection c = connections.getOrCreate(connection);
        total -= c.counted();
        c.retained = bytes;
        total += c.counted();
    }

    /** The backend exited: all it held is given back, including any compile still in flight on it. */
    void closed(long connection) {
        Connection c = connections.remove(connection);
        if (c == null) {
            return;
        }
        c.closed = true;
        total -= c.counted();
        inFlightBytes -= c.inFlight;
        inFlightStatements -= c.statements;
    }

    int inFlightStatements() {
        return inFlightStatements;
    }

    LedgerState state(int budgetWaiting) {
        return new LedgerState(target, total, inFlightBytes, connections.size(), budgetWaiting);
    }

    /** Recomputes the running sums from the entries; for {@link LocalGateways#checkInvariants()}. */
    void check() {
        long sumCounted = 0;
        long sumInFlight = 0;
        int sumStatements = 0;
        for (Connection c : connections.entries()) {
            if (c.closed || c.retained < 0 || c.inFlight < 0 || c.statements < 0) {
                throw new IllegalStateException("ledger: bad entry for connection " + c.id + ": retained "
                        + c.retained + ", in flight " + c.inFlight + " in " + c.statements + " statements");
            }
            sumCounted += c.counted();
            sumInFlight += c.inFlight;
            sumStatements += c.statements;
        }
        if (sumCounted != total || sumInFlight != inFlightBytes || sumStatements != inFlightStatements) {
            throw new IllegalStateException("ledger: running sums total " + total + ", in flight " + inFlightBytes
                    + " in " + inFlightStatements + " statements; entries say " + sumCounted + ", "
                    + sumInFlight + " in " + sumStatements);
        }
    }
}

package io.memogate.broker.gateway;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Compile admission for one server: the three gateways of Baryshnikov et al. (CIDR 2007) followed by a byte
 * budget (DESIGN.md, "Gateways"). {@link LocalGateways} keeps them in this process, and documents the
 * algorithm and its concurrency; an implementation shared by several proxies in front of one server keeps
 * the same contract.
 *
 * <p>Contract for every implementation: nothing blocks a thread (a waiting statement is a {@link Ticket}
 * whose future completes later); each ticket is decided once, so a withdrawal racing a grant or a timeout
 * has one winner; every method is safe from any thread; listener callbacks and future completions never run
 * while the implementation holds its own lock.
 *
 * <p>Whether a server connection keeps its compile memory after the compile is the implementation's
 * {@link CompileMemoryRetention}, fixed when it is built: it follows from the server, not from a setting an
 * operator tunes.
 */
public interface Gateways {

    /** {@link #acquire(long, long, Object)} without a tag. */
    default Ticket acquire(long estimateBytes, long connection) {
        return acquire(estimateBytes, connection, null);
    }

    /**
     * Asks admission for a statement estimated at {@code estimateBytes} of compile memory, to run on server
     * connection {@code connection} (the backend pid). Never blocks: the ticket's future completes when the
     * statement is admitted or rejected, possibly before this returns.
     *
     * @param tag shown in {@link #waiting()} for the admin console (client, user, fingerprint); may be null
     */
    Ticket acquire(long estimateBytes, long connection, Object tag);

    /**
     * As {@link #acquire(long, long, Object)}, for a statement that must take at least the tiers up to
     * {@code atLeast} whatever its estimate, even one below t0: a compile the estimator predicts to be long on
     * the server's CPU (MySQL's join search with pruning off takes seconds in a few megabytes), so that the tier
     * limits bound how many such compiles run at once, as the paper's gateways bound CPU-heavy compiles. Above
     * {@code atLeast} it climbs by its bytes as any statement does; the byte budget counts its bytes only.
     *
     * <p>This default weighs the statement at t0 at least, so that it takes SMALL but climbs by its bytes
     * alone; {@link LocalGateways} and the fleet's gateways keep the floor exactly.
     */
    default Ticket acquire(long estimateBytes, Tier atLeast, long connection, Object tag) {
        Objects.requireNonNull(atLeast, "atLeast");
        return acquire(Math.max(estimateBytes, settings().staticThresholdBytes()), connection, tag);
    }

    /**
     * What {@link Ticket#release()} does: gives back an admitted ticket's permits and its place in flight in
     * the byte budget, or withdraws a waiting one. Idempotent and safe from any thread; a no-op for a ticket
     * already released, rejected or withdrawn, and for one below t0.
     *
     * @throws IllegalArgumentException for a gated ticket another gateways issued
     */
    void release(Ticket ticket);

    /**
     * What {@link Ticket#withdraw()} does: if the ticket is still waiting, it leaves its queue, gives back
     * the tiers it holds, its future completes with a CancellationException, and this returns true;
     * otherwise false, and an admitted ticket must then be released.
     *
     * @throws IllegalArgumentException for a gated ticket another gateways issued
     */
    boolean withdraw(Ticket ticket);

    /**
     * What {@link Ticket#position()} shows: where the ticket waits now, empty once it is decided.
     *
     * @throws IllegalArgumentException for a gated ticket another gateways issued
     */
    Optional<WaitingStatement> position(Ticket ticket);

    /**
     * Takes new settings in place: a higher limit grants waiters at once, a lower one lets holders finish
     * and grants nobody until fewer than the new limit hold the tier; thresholds follow. Waiters keep
     * their place and their deadline; a queue longer than a new maxQueue only refuses newcomers.
     */
    void reconfigure(GatewaySettings settings);

    GatewaySettings settings();

    /**
     * Admits nothing new until {@link #resume()} (the admin console's PAUSE); statements below t0 still
     * pass, and queues keep their timeouts. Idempotent.
     *
     * @return true when this call paused the gateways, false when they were paused already
     */
    boolean pause();

    /**
     * Lifts a {@link #pause()}: the queues are granted in order, as after any release. Idempotent.
     *
     * @return true when this call lifted a pause, false when the gateways were not paused
     */
    boolean resume();

    boolean paused();

    /**
     * Sets the compile-memory target. A smaller one preempts nothing: it only grants less from now on
     * (the budget admits fewer bytes, thresholds fall for statements still choosing their tiers).
     */
    void target(long bytes);

    long target();

    /**
     * Sets what a server connection measurably retains (RssAnon or Pss from /proc), replacing the figure
     * derived from estimates; it may be smaller.
     */
    void retained(long connection, long bytes);

    /**
     * The server connection ended: the memory its backend held is given back. A statement still in flight
     * on it keeps its permits until released, but no longer counts in the ledger.
     */
    void connectionClosed(long connection);

    /**
     * What the ledger counts a server connection as retaining: measured (RssAnon, Pss) when the broker
     * has measured it since, else what {@link CompileMemoryRetention} leaves of its compiles; 0 for a
     * connection it does not know.
     */
    long retainedBy(long connection);

    TierState state(Tier tier);

    LedgerState ledger();

    /** Every waiting statement: the SMALL, MEDIUM and LARGE queues, then the budget's, each in order. */
    List<WaitingStatement> waiting();
}

package io.memogate.broker.gateway;

import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * One statement's admission, from {@link Gateways#acquire}. Its life:
 * <pre>
 *   WAITING --granted--> ADMITTED --release()--> RELEASED
 *      |-----rejected (queue full, timeout)---> REJECTED
 *      '-----withdraw(), or release() while waiting--> WITHDRAWN
 * </pre>
 * A statement below t0 is born ADMITTED, holds nothing, and its release does nothing.
 *
 * <p>The state changes exactly once out of WAITING (in {@link LocalGateways}, under its lock), and only
 * the thread that made that change completes {@link #admitted()} (after unlocking). So withdraw() racing a
 * grant, or a timeout racing a grant, has exactly one winner: a withdraw() that loses returns false and
 * the caller must release the admitted ticket. Its methods go to the {@link Gateways} that issued it.
 *
 * <p>Fields without a modifier are {@link LocalGateways}' bookkeeping, guarded by its lock.
 */
public final class Ticket {

    enum State { WAITING, ADMITTED, RELEASED, REJECTED, WITHDRAWN }

    /** Null when the statement was below t0. */
    private final Gateways gateways;
    private final long estimateBytes;
    private final long connection;
    private final Object tag;
    private final Admission admitted;

    State state;
    /** Tiers held: SMALL up to, not including, Tier.of(held). Acquired in order, so always a prefix. */
    int held;
    /** Tiers it takes whatever its estimate ({@link Gateways#acquire(long, Tier, long, Object)}); 0 for most. */
    int floorTiers;
    /** The highest tier held or waited for; volatile so that highestTier() needs no lock. */
    volatile Tier needed;

    /** The queue it waits in, and its neighbours there (see WaitQueue). */
    WaitQueue queue;
    Ticket prev;
    Ticket next;

    /** Bumped on every enqueue, so that a timeout scheduled for an earlier queue is recognised as stale. */
    int waitSeq;
    GatewayTimer.Cancellable timeout;
    boolean hasWaited;
    long waitStart;

    /** The ledger entry its estimate is in flight on, from admission to release. */
    ByteLedger.Connection charged;

    /** The outcome, recorded under the lock by the deciding thread and delivered by it after unlocking. */
    RuntimeException failure;
    long waitedNanos;
    Ticket doneNext;

    Ticket(Gateways gateways, long estimateBytes, long connection, Object tag) {
        this.gateways = gateways;
        this.estimateBytes = estimateBytes;
        this.connection = connection;
        this.tag = tag;
        this.admitted = new Admission(this);
        this.state = State.WAITING;
    }

    /**
     * A gated statement's ticket, waiting, for a {@link Gateways} kept outside this package (shared by several
     * proxies): its methods go to {@code issuer}, which completes {@link #admitted()} once and reports the
     * tier it waits for with {@link #needs(Tier)}. The issuer keeps its own bookkeeping; these fields stay
     * {@link LocalGateways}'.
     */
    public static Ticket issue(Gateways issuer, long estimateBytes, long connection, Object tag) {
        return new Ticket(Objects.requireNonNull(issuer, "issuer"), estimateBytes, connection, tag);
    }

    /** A statement below t0: admitted at once, holding nothing, touching no shared state. */
    public static Ticket ungated(long estimateBytes, long connection, Object tag) {
        Ticket t = new Ticket(null, estimateBytes, connection, tag);
        t.state = State.ADMITTED;
        t.admitted.complete(t);
        return t;
    }

    /**
     * Completes normally with this ticket when granted; exceptionally with {@link GatewayRejectedException}
     * on QUEUE_FULL or TIMEOUT, or with a CancellationException after {@link #withdraw()}. Callbacks run on
     * whatever thread decided (another statement's release, the timer): hop to your own executor.
     * {@code cancel()} on it withdraws the ticket.
     */
    public CompletableFuture<Ticket> admitted() {
        return admitted;
    }

    /** The highest tier it holds or is waiting for; empty when below t0. */
    public Optional<Tier> highestTier() {
        return Optional.ofNullable(needed);
    }

    /** False when the estimate was below t0 and no gateway was involved. */
    public boolean gated() {
        return gateways != null;
    }

    public long estimateBytes() {
        return estimateBytes;
    }

    /** The server connection (backend pid) the statement runs on. */
    public long connection() {
        return connection;
    }

    public Object tag() {
        return tag;
    }

    /** Where it waits now; empty once admitted, rejected or withdrawn. */
    public Optional<WaitingStatement> position() {
        return gateways == null ? Optional.empty() : gateways.position(this);
    }

    /**
     * If still waiting: leaves the queue, gives back the tiers it holds, completes {@link #admitted()} with a
     * CancellationException and returns true. Otherwise (already admitted, rejected or withdrawn) returns
     * false; an admitted ticket must then be released.
     */
    public boolean withdraw() {
        return gateways != null && gateways.withdraw(this);
    }

    /**
     * Gives back what the statement holds: after admission its permits (in reverse order) and its place in
     * flight in the byte budget. Idempotent; a no-op after rejection or withdrawal. Called while still
     * waiting (a client that disconnected) it withdraws, so that a later grant cannot leak permits.
     */
    public void release() {
        if (gateways != null) {
            gateways.release(this);
        }
    }

    /** The gateways that issued it, null when it was below t0. */
    Gateways issuer() {
        return gateways;
    }

    /** True when {@code candidate} issued this gated ticket; false for an ungated one. */
    public boolean issuedBy(Gateways candidate) {
        return gateways != null && gateways == candidate;
    }

    /**
     * For the issuer of a ticket made with {@link #issue}: the highest tier it holds or waits for, as
     * {@link #highestTier()} shows it.
     */
    public void needs(Tier tier) {
        needed = Objects.requireNonNull(tier, "tier");
    }

    @Override
    public String toString() {
        return "Ticket[" + Sizes.bytes(estimateBytes) + " on " + connection
                + (gateways == null ? ", ungated" : ", " + needed) + "]";
    }

    /** The admission future; cancelling it withdraws the ticket. */
    private static final class Admission extends CompletableFuture<Ticket> {

        private final Ticket ticket;

        Admission(Ticket ticket) {
            this.ticket = ticket;
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            ticket.withdraw();
            return isCancelled();
        }
    }
}

package io.memogate.broker.gateway;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * The three compile gateways of Baryshnikov et al. (CIDR 2007) followed by a byte budget, kept in this
 * process: the {@link Gateways} of one proxy.
 *
 * <p>A statement with estimate e below t0 passes at once, takes no lock and holds nothing. Otherwise:
 * <ol>
 *   <li>it takes a SMALL permit; holding it, it compares e with t1 = target x F_small / S_small, S being
 *       the statements holding SMALL now (itself included). If e >= t1 it takes MEDIUM as well, and then,
 *       if e >= t2 = target x F_medium / S_medium, LARGE. Permits are taken in this order and the smaller
 *       ones are held while waiting for the next, so there is no cycle and no deadlock;</li>
 *   <li>holding its tiers, it must fit the byte budget (DESIGN.md, "sticky"): its cost max(0, e - what
 *       its server connection already retains) must fit between the ledger total and the target, or no
 *       other gated statement may be in flight;</li>
 *   <li>on release its permits go back in reverse order; with {@link
 *       CompileMemoryRetention#RETAINED_UNTIL_CONNECTION_ENDS} (PostgreSQL, the default) its estimate stays
 *       in the ledger as memory the connection retains, until the connection closes, and with {@link
 *       CompileMemoryRetention#RELEASED_AFTER_COMPILE} it leaves the ledger.</li>
 * </ol>
 * A statement acquired with a floor ({@link #acquire(long, Tier, long, Object)}: a compile predicted to be long on
 * the server's CPU) takes SMALL even below t0, and every tier up to its floor whatever its estimate; above the
 * floor its estimate decides as for any other.
 * Each tier has a FIFO queue with a maximum length (arriving at a full one rejects at once) and a timeout;
 * the budget has one FIFO queue, head-of-line: a statement that costs nothing passes it, others wait
 * behind the head, with the timeout of the highest tier they hold. A rejected or withdrawn statement gives
 * back everything it holds.
 *
 * <p>Concurrency. One lock guards all state; every public operation takes it once. Waiting never blocks a
 * thread: a waiter is a {@link Ticket} in a queue, and whatever frees room (a release, a timeout, a
 * withdrawal, a larger limit or target) grants it from inside its own operation
 * ({@link AdmissionMachine#settle()}). Decisions are made under the lock ({@link AdmissionMachine}) and
 * chained on a done list; the futures are completed and the listener called after unlocking, so no
 * callback runs under the lock. Each ticket leaves WAITING once, under the lock, which settles every race
 * between a grant and withdraw(), a timeout, or release().
 */
public final class LocalGateways implements Gateways {

    private final GuardedListener listener;
    private final ReentrantLock lock = new ReentrantLock();
    /** Guarded by lock. */
    private final AdmissionMachine machine;
    /** Written under the lock, read without it by the ungated path. */
    private volatile GatewaySettings settings;

    /** For a PostgreSQL server: connections keep their compile memory until they end. */
    public LocalGateways(GatewaySettings settings, long targetBytes, LongSupplier nanoTime, GatewayTimer timer,
                         GatewayListener listener) {
        this(settings, targetBytes, nanoTime, timer, listener, CompileMemoryRetention.RETAINED_UNTIL_CONNECTION_ENDS);
    }

    /**
     * @param targetBytes the compile-memory target: thresholds are fractions of it and the byte budget
     *     admits within it; the broker moves it with {@link #target(long)}
     * @param nanoTime the clock for waiting times, System::nanoTime in production
     * @param timer runs queue timeouts ({@link ScheduledGatewayTimer} in production)
     * @param retention what the server's connections keep after a compile, for the byte budget
     */
    public LocalGateways(GatewaySettings settings, long targetBytes, LongSupplier nanoTime, GatewayTimer timer,
                         GatewayListener listener, CompileMemoryRetention retention) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.listener = new GuardedListener(listener);
        checkTarget(targetBytes);
        this.machine = new AdmissionMachine(settings, targetBytes, Objects.requireNonNull(retention, "retention"),
                Objects.requireNonNull(nanoTime, "nanoTime"), Objects.requireNonNull(timer, "timer"),
                this::timedOut);
    }

    @Override
    public Ticket acquire(long estimateBytes, long connection, Object tag) {
        return acquire(estimateBytes, 0, connection, tag);
    }

    /** The floor is kept exactly: the statement takes every tier up to {@code atLeast} before its bytes decide. */
    @Override
    public Ticket acquire(long estimateBytes, Tier atLeast, long connection, Object tag) {
        return acquire(estimateBytes, Objects.requireNonNull(atLeast, "atLeast").ordinal() + 1, connection, tag);
    }

    private Ticket acquire(long estimateBytes, int floorTiers, long connection, Object tag) {
        if (estimateBytes < 0) {
            throw new IllegalArgumentException("estimateBytes must be >= 0, was " + estimateBytes);
        }
        if (floorTiers == 0 && estimateBytes < settings.staticThresholdBytes()) {
            Ticket t = Ticket.ungated(estimateBytes, connection, tag);
            notifyAdmitted(null, 0, estimateBytes);
            return t;
        }
        Ticket t = new Ticket(this, estimateBytes, connection, tag);
        t.floorTiers = floorTiers;
        Ticket done;
        lock.lock();
        try {
            machine.arrive(t);
            done = machine.takeDone();
        } finally {
            lock.unlock();
        }
        deliver(done);
        return t;
    }

    @Override
    public void reconfigure(GatewaySettings settings) {
        Objects.requireNonNull(settings, "settings");
        Ticket done;
        lock.lock();
        try {
            this.settings = settings;
            machine.apply(settings);
            machine.settle();
            done = machine.takeDone();
        } finally {
            lock.unlock();
        }
        deliver(done);
    }

    /**
     * Admits nothing new until {@link #resume()}: the admin console's PAUSE, for when the server must be
     * left alone (a failover, a memory incident) without refusing clients. Statements already admitted keep
     * their permits and finish; their releases grant nobody. New gated statements queue in SMALL even where
     * a permit is free, behind those already waiting, so that resume lets everyone through in arrival
     * order. Queues keep their maxQueue (a full one still refuses at once) and their timeouts keep running:
     * a pause longer than a tier's timeout refuses its waiters as a busy server would, rather than holding
     * clients forever.
     *
     * <p>Statements below t0 still pass: they hold nothing, take no lock, and plan in a few hundred kB, so
     * holding them would stop every small query without protecting the server from anything. Idempotent.
     *
     * @return true when this call paused the gateways, false when they were paused already (so that two
     *     admins' PAUSEs are told, and logged, as one change)
     */
    @Override
    public boolean pause() {
        lock.lock();
        try {
            return machine.pause();
        } finally {
            lock.unlock();
        }
    }

    /** The queues are granted in order, as far as limits and the byte budget allow, exactly as after any release. */
    @Override
    public boolean resume() {
        Ticket done;
        boolean changed;
        lock.lock();
        try {
            changed = machine.resume();
            machine.settle();
            done = machine.takeDone();
        } finally {
            lock.unlock();
        }
        deliver(done);
        return changed;
    }

    @Override
    public boolean paused() {
        lock.lock();
        try {
            return machine.paused();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void target(long bytes) {
        checkTarget(bytes);
        Ticket done;
        lock.lock();
        try {
            machine.ledger().target(bytes);
            machine.settle();
            done = machine.takeDone();
        } finally {
            lock.unlock();
        }
        deliver(done);
    }

    @Override
    public long target() {
        lock.lock();
        try {
            return machine.ledger().target();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void retained(long connection, long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("retained bytes must be >= 0, was " + bytes);
        }
        Ticket done;
        lock.lock();
        try {
            machine.ledger().retained(connection, bytes);
            machine.settle();
            done = machine.takeDone();
        } finally {
            lock.unlock();
        }
        deliver(done);
    }

    @Override
    public void connectionClosed(long connection) {
        Ticket done;
        lock.lock();
        try {
            machine.ledger().closed(connection);
            machine.settle();
            done = machine.takeDone();
        } finally {
            lock.unlock();
        }
        deliver(done);
    }

    @Override
    public long retainedBy(long connection) {
        lock.lock();
        try {
            return machine.ledger().retainedBy(connection);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public GatewaySettings settings() {
        return settings;
    }

    @Override
    public TierState state(Tier tier) {
        Objects.requireNonNull(tier, "tier");
        lock.lock();
        try {
            return machine.state(tier);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public LedgerState ledger() {
        lock.lock();
        try {
            return machine.ledgerState();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public List<WaitingStatement> waiting() {
        List<WaitingStatement> all = new ArrayList<>();
        lock.lock();
        try {
            machine.describeWaiting(all);
        } finally {
            lock.unlock();
        }
        return all;
    }

    // ---- a ticket's own calls ----

    @Override
    public Optional<WaitingStatement> position(Ticket t) {
        if (!own(t)) {
            return Optional.empty();
        }
        lock.lock();
        try {
            return Optional.ofNullable(machine.position(t));
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean withdraw(Ticket t) {
        if (!own(t)) {
            return false;
        }
        boolean withdrawn;
        Ticket done;
        lock.lock();
        try {
            withdrawn = machine.withdraw(t);
            if (withdrawn) {
                machine.settle();
            }
            done = machine.takeDone();
        } finally {
            lock.unlock();
        }
        deliver(done);
        return withdrawn;
    }

    @Override
    public void release(Ticket t) {
        if (!own(t)) {
            return;
        }
        Ticket done;
        lock.lock();
        try {
            machine.release(t);
            done = machine.takeDone();
        } finally {
            lock.unlock();
        }
        deliver(done);
    }

    /**
     * True for a gated ticket of these gateways, false for an ungated one (it holds nothing here); another
     * gateways' ticket would corrupt the bookkeeping, so it is refused.
     */
    private boolean own(Ticket t) {
        Gateways issuer = t.issuer();
        if (issuer == this) {
            return true;
        }
        if (issuer == null) {
            return false;
        }
        throw new IllegalArgumentException(t + " was issued by other gateways");
    }

    // ---- called by the timer ----

    private void timedOut(Ticket t, int seq) {
        Ticket done;
        lock.lock();
        try {
            machine.timedOut(t, seq);
            done = machine.takeDone();
        } finally {
            lock.unlock();
        }
        deliver(done);
    }

    // ---- outside the lock ----

    /** Completes the futures of the tickets decided under the lock, in order, then tells the listener. */
    private void deliver(Ticket t) {
        while (t != null) {
            Ticket next = t.doneNext;
            t.doneNext = null;
            RuntimeException failure = t.failure;
            if (failure == null) {
                if (!t.admitted().complete(t)) {
                    // Someone completed the future from outside: nobody will learn of this grant, so
                    // nobody would release it.
                    t.release();
                }
                notifyAdmitted(t.needed, t.waitedNanos, t.estimateBytes());
            } else {
                t.admitted().completeExceptionally(failure);
                if (failure instanceof GatewayRejectedException rejected) {
                    notifyRejected(rejected, t.waitedNanos);
                }
            }
            t = next;
        }
    }

    private void notifyAdmitted(Tier highest, long waitedNanos, long estimateBytes) {
        listener.admitted(highest, waitedNanos, estimateBytes);
    }

    private void notifyRejected(GatewayRejectedException rejected, long waitedNanos) {
        listener.rejected(rejected, waitedNanos);
    }

    private static void checkTarget(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("target bytes must be >= 0, was " + bytes);
        }
    }

    /**
     * Checks the bookkeeping against itself; throws IllegalStateException naming the first inconsistency.
     * For tests, which call it while other threads work: it sees a state between two operations.
     */
    void checkInvariants() {
        lock.lock();
        try {
            machine.checkInvariants();
        } finally {
            lock.unlock();
        }
    }
}

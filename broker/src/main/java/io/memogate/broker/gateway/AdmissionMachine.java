package io.memogate.broker.gateway;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.function.LongSupplier;

/**
 * The gateways' state and the moves a ticket makes through it: tiers in order, then the byte budget.
 * Not thread-safe: {@link LocalGateways} calls it under its lock, then delivers what {@link #takeDone()}
 * returns after unlocking.
 *
 * <p>A ticket moves in {@link #advance}: it takes the next tier it needs while one is free and nobody
 * queues for it, and stops when it must wait, is rejected, or holds enough and enters the budget. Whatever
 * frees room then calls {@link #settle()}, which grants the queues' heads and advances them in turn.
 * Decided tickets are chained on a done list, linked through the tickets (no allocation).
 */
final class AdmissionMachine {

    /** How a scheduled timeout reaches back into the gateways (which take the lock first). */
    interface TimeoutHandler {
        void timedOut(Ticket t, int seq);
    }

    private static final int TIERS = Tier.values().length;

    private final LongSupplier nanoTime;
    private final GatewayTimer timer;
    private final TimeoutHandler timeouts;
    private final TierGate[] gates = new TierGate[TIERS];
    private final WaitQueue budget = new WaitQueue(null);
    private final ByteLedger ledger;
    private long staticThreshold;
    /** PAUSE from the admin console: no ticket is granted anything until resumed ({@link LocalGateways#pause()}). */
    private boolean paused;
    private Ticket doneHead;
    private Ticket doneTail;

    AdmissionMachine(GatewaySettings settings, long targetBytes, CompileMemoryRetention retention,
                     LongSupplier nanoTime, GatewayTimer timer, TimeoutHandler timeouts) {
        this.nanoTime = nanoTime;
        this.timer = timer;
        this.timeouts = timeouts;
        this.ledger = new ByteLedger(targetBytes, retention);
        for (int i = 0; i < TIERS; i++) {
            gates[i] = new TierGate(Tier.of(i), settings.tier(Tier.of(i)));
        }
        this.staticThreshold = settings.staticThresholdBytes();
    }

    // ---- changes from outside ----

    void apply(GatewaySettings settings) {
        staticThreshold = settings.staticThresholdBytes();
        for (TierGate gate : gates) {
            gate.apply(settings.tier(gate.tier));
        }
    }

    ByteLedger ledger() {
        return ledger;
    }

    /** True when this paused them, false when they already were. */
    boolean pause() {
        boolean changed = !paused;
        paused = true;
        return changed;
    }

    /** Lifts the pause, true when there was one; the caller settles, which grants the queues in their order. */
    boolean resume() {
        boolean changed = paused;
        paused = false;
        return changed;
    }

    boolean paused() {
        return paused;
    }

    // ---- a ticket's moves ----

    /** A new statement at or above t0 asks for admission. */
    void arrive(Ticket t) {
        advance(t);
        settle(); // a rejection gave permits back
    }

    /** Returns false when {@code t} is not waiting (already admitted, rejected or withdrawn). */
    boolean withdraw(Ticket t) {
        if (t.state != Ticket.State.WAITING) {
            return false;
        }
        WaitQueue queue = t.queue;
        leaveQueue(t);
        t.state = Ticket.State.WITHDRAWN;
        t.waitedNanos = waitedSoFar(t);
        givePermitsBack(t);
        t.failure = new CancellationException("withdrawn while waiting for the " + queue
                + (queue == budget ? "" : " gateway"));
        done(t);
        return true;
    }

    /** Gives back an admitted ticket's permits and settles its bytes; a waiting one is withdrawn. */
    void release(Ticket t) {
        switch (t.state) {
            case ADMITTED -> {
                t.state = Ticket.State.RELEASED;
                ledger.settle(t.charged, t.estimateBytes());
                t.charged = null;
                for (int i = t.held - 1; i >= 0; i--) {
                    gates[i].admittedHolding--;
                    gates[i].active--;
                }
                t.held = 0;
            }
            // A client gone while its statement waits: leave now, or a later grant would leak permits.
            case WAITING -> withdraw(t);
            default -> {
                return;
            }
        }
        settle();
    }

    void timedOut(Ticket t, int seq) {
        // Stale: granted (and maybe queued again further on) before this task could be cancelled.
        if (t.state != Ticket.State.WAITING || t.waitSeq != seq) {
            return;
        }
        boolean forBudget = t.queue == budget;
        TierGate gate = forBudget ? gates[t.held - 1] : gates[t.queue.tier.ordinal()];
        t.timeout = null; // it is this task: nothing to cancel
        leaveQueue(t);
        gate.timeoutsTotal++;
        reject(t, GatewayRejectedException.Reason.TIMEOUT, gate.tier, forBudget);
        settle();
    }

    /** Moves {@code t} on from the permits it holds until it waits, is admitted or is rejected. */
    private void advance(Ticket t) {
        while (true) {
            int next = nextTier(t);
            if (next < 0) {
                enterBudget(t);
                return;
            }
            TierGate gate = gates[next];
            if (t.needed != gate.tier) {
                t.needed = gate.tier;
            }
            if (!paused && gate.grantableNow()) {
                gate.active++;
                t.held++;
            } else if (gate.queueFull()) {
                gate.queueFullTotal++;
                reject(t, GatewayRejectedException.Reason.QUEUE_FULL, gate.tier, false);
                return;
            } else {
                enqueue(t, gate.queue, gate.timeoutNanos);
                return;
            }
        }
    }

    /**
     * The ordinal of the next tier {@code t} needs, or -1 when its tiers suffice. The threshold is taken
     * once the lower permit is held, with S as it is at that moment (the paper's t1 and t2); tiers below the
     * ticket's floor are taken whatever its estimate.
     */
    private int nextTier(Ticket t) {
        int held = t.held;
        if (held == 0 || held < t.floorTiers) {
            return held;
        }
        if (held == TIERS) {
            return -1;
        }
        return t.estimateBytes() >= gates[held - 1].nextThreshold(ledger.target()) ? held : -1;
    }

    private void enterBudget(Ticket t) {
        long cost = ledger.cost(t.connection(), t.estimateBytes());
        if (!paused && (cost == 0 || (budget.isEmpty() && ledger.fits(cost)))) {
            admit(t);
        } else {
            enqueue(t, budget, gates[t.held - 1].timeoutNanos);
        }
    }

    private void enqueue(Ticket t, WaitQueue queue, long timeoutNanos) {
        if (!t.hasWaited) {
            t.hasWaited = true;
            t.waitStart = nanoTime.getAsLong();
        }
        queue.add(t);
        int seq = ++t.waitSeq;
        t.timeout = timer.schedule(() -> timeouts.timedOut(t, seq), timeoutNanos);
    }

    private void leaveQueue(Ticket t) {
        t.queue.remove(t);
        if (t.timeout != null) {
            t.timeout.cancel();
            t.timeout = null;
        }
    }

    private void admit(Ticket t) {
        t.charged = ledger.charge(t.connection(), t.estimateBytes());
        t.state = Ticket.State.ADMITTED;
        for (int i = 0; i < t.held; i++) {
            gates[i].admittedHolding++;
            gates[i].admittedTotal++;
        }
        t.waitedNanos = waitedSoFar(t);
        done(t);
    }

    private void reject(Ticket t, GatewayRejectedException.Reason reason, Tier tier, boolean forBudget) {
        long waited = waitedSoFar(t);
        t.state = Ticket.State.REJECTED;
        givePermitsBack(t);
        t.waitedNanos = waited;
        t.failure = new GatewayRejectedException(reason, tier, forBudget, Duration.ofNanos(waited),
                t.estimateBytes(), paused);
        done(t);
    }

    private void givePermitsBack(Ticket t) {
        for (int i = t.held - 1; i >= 0; i--) {
            gates[i].active--;
        }
        t.held = 0;
    }

    /**
     * Grants whatever the current state allows, until nothing moves: budget waiters first (they hold
     * permits already), then each tier's queue from LARGE down. Runs after every change that can free
     * room, so at rest no waiter is left behind a free permit or a fitting budget. While paused it grants
     * nothing: that is all a pause is.
     */
    void settle() {
        if (paused) {
            return;
        }
        boolean progress = true;
        while (progress && waiters() > 0) {
            progress = pumpBudget();
            for (int i = TIERS - 1; i >= 0; i--) {
                progress |= pump(gates[i]);
            }
        }
    }

    private boolean pump(TierGate gate) {
        boolean progress = false;
        while (!gate.queue.isEmpty() && gate.active < gate.limit) {
            Ticket t = gate.queue.head;
            leaveQueue(t);
            gate.active++;
            t.held++;
            advance(t);
            progress = true;
        }
        return progress;
    }

    /** Head-of-line: after the first waiter that does not fit, only those costing nothing pass. */
    private boolean pumpBudget() {
        boolean progress = false;
        boolean blocked = false;
        Ticket t = budget.head;
        while (t != null) {
            Ticket next = t.next;
            long cost = ledger.cost(t.connection(), t.estimateBytes());
            if (cost == 0 || (!blocked && ledger.fits(cost))) {
                leaveQueue(t);
                admit(t);
                progress = true;
            } else {
                blocked = true;
            }
            t = next;
        }
        return progress;
    }

    private int waiters() {
        int n = budget.size;
        for (TierGate gate : gates) {
            n += gate.queue.size;
        }
        return n;
    }

    private long waitedSoFar(Ticket t) {
        return t.hasWaited ? nanoTime.getAsLong() - t.waitStart : 0;
    }

    private void done(Ticket t) {
        t.doneNext = null;
        if (doneTail == null) {
            doneHead = t;
        } else {
            doneTail.doneNext = t;
        }
        doneTail = t;
    }

    /** The tickets decided since the last call, chained through {@link Ticket#doneNext}, in order. */
    Ticket takeDone() {
        Ticket head = doneHead;
        doneHead = null;
        doneTail = null;
        return head;
    }

    // ---- views ----

    TierState state(Tier tier) {
        long threshold = tier == Tier.SMALL
                ? staticThreshold
                : gates[tier.ordinal() - 1].nextThreshold(ledger.target());
        return gates[tier.ordinal()].state(threshold);
    }

    LedgerState ledgerState() {
        return ledger.state(budget.size);
    }

    /** The SMALL, MEDIUM and LARGE queues, then the budget's, each in order. */
    void describeWaiting(List<WaitingStatement> into) {
        long now = nanoTime.getAsLong();
        for (TierGate gate : gates) {
            describeAll(gate.queue, now, into);
        }
        describeAll(budget, now, into);
    }

    WaitingStatement position(Ticket t) {
        if (t.state != Ticket.State.WAITING) {
            return null;
        }
        return describe(t, t.queue.positionOf(t), nanoTime.getAsLong());
    }

    private void describeAll(WaitQueue queue, long now, List<WaitingStatement> into) {
        int position = 1;
        for (Ticket t = queue.head; t != null; t = t.next) {
            into.add(describe(t, position++, now));
        }
    }

    private WaitingStatement describe(Ticket t, int position, long now) {
        boolean forBudget = t.queue == budget;
        return new WaitingStatement(forBudget ? null : t.queue.tier, forBudget, position, t.estimateBytes(),
                t.connection(), Duration.ofNanos(now - t.waitStart), t.tag(), paused);
    }

    void checkInvariants() {
        InvariantCheck.check(gates, budget, ledger, doneHead, paused);
    }
}

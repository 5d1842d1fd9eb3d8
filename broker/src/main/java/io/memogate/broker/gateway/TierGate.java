package io.memogate.broker.gateway;

import java.time.Duration;

/**
 * One gateway: its permits, its queue and its counters. Guarded by the {@link LocalGateways} lock.
 *
 * <p>A resize only changes {@code limit}; {@code active} counts the permits actually held, so lowering
 * the limit lets holders finish (active may exceed the limit until they release) and nothing admitted is
 * lost or counted twice.
 */
final class TierGate {

    final Tier tier;
    final WaitQueue queue;

    int limit;
    double fraction;
    int maxQueue;
    Duration timeout;
    long timeoutNanos;

    /** Permits held, by admitted statements and by statements waiting for a higher tier or the budget. */
    int active;
    /** Of {@link #active}, those held by admitted statements; checked against it by the invariants. */
    int admittedHolding;

    long admittedTotal;
    long timeoutsTotal;
    long queueFullTotal;

    TierGate(Tier tier, TierSettings settings) {
        this.tier = tier;
        this.queue = new WaitQueue(tier);
        apply(settings);
    }

    /**
     * Takes new settings in place. Waiters keep their place and the deadline they were given; a queue
     * longer than the new maxQueue is not trimmed, it only refuses newcomers until it is shorter.
     */
    void apply(TierSettings settings) {
        limit = settings.limit();
        fraction = settings.fraction();
        maxQueue = settings.maxQueue();
        timeout = settings.timeout();
        timeoutNanos = settings.timeout().toNanos();
    }

    /** A newcomer may take a permit now: one is free and nobody waits for it before (FIFO, no barging). */
    boolean grantableNow() {
        return active < limit && queue.isEmpty();
    }

    boolean queueFull() {
        return queue.size >= maxQueue;
    }

    /**
     * The estimate from which a statement holding this tier needs the next: target x F / S, S being the
     * statements holding this tier now (at least 1). More holders, lower threshold: under load smaller
     * statements are serialized too.
     */
    long nextThreshold(long target) {
        return (long) (target * fraction / Math.max(1, active));
    }

    TierState state(long thresholdBytes) {
        return new TierState(tier, limit, active, queue.size, thresholdBytes, fraction, timeout,
                admittedTotal, timeoutsTotal, queueFullTotal);
    }
}

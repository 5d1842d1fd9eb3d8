package io.memogate.proxy.admission;

import io.memogate.broker.gateway.Tier;
import io.memogate.broker.gateway.WaitingStatement;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * Predicts how long a statement that has just joined a tier's queue will wait, so that admission.degrade.after
 * can degrade it at once when the wait is foreseeable rather than after waiting it out: {@code position x H /
 * permits}, where H is an exponentially weighted mean of how long this proxy's recent statements held the tier's
 * permit (from grant to release), with weight {@value #WEIGHT} on the newest. With every permit held, the tier
 * frees one every H / permits on average, and the statement needs {@code position} of them.
 *
 * <p>Conservative: nothing is predicted for a tier until {@value #MIN_HOLDS} holds of it were seen, nor for a
 * statement waiting for the byte budget (its wait follows bytes, not permits) or while the gateways are paused
 * (the pause lasts as long as the operator wants). A prediction that turns out short costs nothing: the timer
 * still degrades the statement once it has waited {@code after}.
 *
 * <p>In a fleet the place in the queue and the limit are the fleet's (Redis); the hold times are this proxy's own
 * statements', a sample of the same server's compiles. Safe from any thread: one lock, held for a few arithmetic
 * operations.
 */
public final class WaitPredictor {

    /** Holds of a tier seen before its waits are predicted. */
    public static final int MIN_HOLDS = 5;
    /** The newest hold's weight in the mean: about the last ten holds count. */
    static final double WEIGHT = 0.2;

    private final LongSupplier nanoTime;
    private final long[] holds = new long[Tier.values().length];
    private final double[] meanNanos = new double[Tier.values().length];

    /** @param nanoTime the clock holds are timed with */
    public WaitPredictor(LongSupplier nanoTime) {
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
    }

    /** Now, on the clock holds are timed with: a statement's grant. */
    long now() {
        return nanoTime.getAsLong();
    }

    /**
     * A statement that held every tier up to {@code highest} since {@code grantedAtNanos} ({@link #now()}) gave
     * them back now: a hold of each, since a statement holds its tiers from SMALL up, all for the same time.
     */
    void released(Tier highest, long grantedAtNanos) {
        long held = Math.max(0, nanoTime.getAsLong() - grantedAtNanos);
        for (Tier tier : Tier.values()) {
            if (tier.ordinal() > highest.ordinal()) {
                break;
            }
            held(tier, Duration.ofNanos(held));
        }
    }

    /** One hold of {@code tier}'s permit that lasted {@code held}. */
    public synchronized void held(Tier tier, Duration held) {
        int i = tier.ordinal();
        double nanos = held.toNanos();
        meanNanos[i] = holds[i] == 0 ? nanos : meanNanos[i] + WEIGHT * (nanos - meanNanos[i]);
        holds[i]++;
    }

    /** How many holds of {@code tier} were seen. */
    public synchronized long holds(Tier tier) {
        return holds[tier.ordinal()];
    }

    /**
     * The wait of the statement at {@code position} in {@code tier}'s queue, with {@code permits} to the tier;
     * empty while fewer than {@value #MIN_HOLDS} holds of the tier were seen.
     */
    public synchronized Optional<PredictedWait> predict(Tier tier, int position, int permits) {
        Objects.requireNonNull(tier, "tier");
        int i = tier.ordinal();
        if (holds[i] < MIN_HOLDS || position < 1 || permits < 1) {
            return Optional.empty();
        }
        Duration meanHold = Duration.ofNanos(Math.round(meanNanos[i]));
        Duration wait = Duration.ofNanos(Math.round(meanNanos[i] * position / permits));
        return Optional.of(new PredictedWait(tier, position, permits, meanHold, wait));
    }

    /**
     * The wait of a statement queued as {@code waiting} says, its tier having {@code permits}: empty for one
     * waiting for the byte budget, while the gateways are paused, or before enough holds were seen.
     */
    public Optional<PredictedWait> predict(WaitingStatement waiting, int permits) {
        if (waiting.forBudget() || waiting.tier() == null || waiting.paused()) {
            return Optional.empty();
        }
        return predict(waiting.tier(), waiting.position(), permits);
    }

    /** Why nothing is predicted for {@code waiting}: what SHOW QUEUE and EXPLAIN ADMISSION say instead. */
    public String noPrediction(WaitingStatement waiting) {
        if (waiting.forBudget() || waiting.tier() == null) {
            return "no predicted wait for the compile-memory budget";
        }
        if (waiting.paused()) {
            return "no predicted wait while the gateways are paused";
        }
        return noPrediction(waiting.tier());
    }

    /** "no predicted wait: 3 of 5 LARGE holds seen". */
    public String noPrediction(Tier tier) {
        return "no predicted wait: " + Math.min(holds(tier), MIN_HOLDS) + " of " + MIN_HOLDS + " " + tier
                + " holds seen";
    }
}

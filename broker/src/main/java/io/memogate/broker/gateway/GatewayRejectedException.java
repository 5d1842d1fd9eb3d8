package io.memogate.broker.gateway;

import java.time.Duration;
import java.util.Objects;

/**
 * A statement the gateways refused: its tier's queue was full, or it waited too long. The message is
 * plain ("LARGE gateway: waited 300.0 s, estimate 612 MB"); the protocol layer adds SQLSTATE and hint.
 *
 * <p>No stack trace is recorded: it would show the timer thread or another statement's release, not the
 * statement's own path, and rejections come in bursts exactly when the proxy is under load.
 */
public final class GatewayRejectedException extends RuntimeException {

    public enum Reason {
        /** The tier's queue already held its maximum when the statement arrived. */
        QUEUE_FULL,
        /** The statement waited longer than its tier's timeout. */
        TIMEOUT
    }

    private final Reason reason;
    private final Tier tier;
    private final boolean budget;
    private final Duration waited;
    private final long estimateBytes;
    private final boolean paused;

    /**
     * @param tier the tier whose queue rejected it; for the byte budget the highest tier it held
     * @param budget true when it was waiting for the byte budget rather than for a tier's permit
     * @param waited time since it first had to wait
     * @param paused true when the gateways were paused as it was refused: the pause filled the queue or
     *     ran out the wait, whatever the server's load
     */
    public GatewayRejectedException(Reason reason, Tier tier, boolean budget, Duration waited, long estimateBytes,
            boolean paused) {
        super(message(reason, tier, budget, waited, estimateBytes), null, false, false);
        this.reason = reason;
        this.tier = tier;
        this.budget = budget;
        this.waited = waited;
        this.estimateBytes = estimateBytes;
        this.paused = paused;
    }

    private static String message(Reason reason, Tier tier, boolean budget, Duration waited, long estimateBytes) {
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(tier, "tier");
        Objects.requireNonNull(waited, "waited");
        String what = switch (reason) {
            case QUEUE_FULL -> "queue full, waited " + Sizes.seconds(waited.toNanos());
            case TIMEOUT -> "waited " + Sizes.seconds(waited.toNanos()) + (budget ? " for the byte budget" : "");
        };
        return tier + " gateway: " + what + ", estimate " + Sizes.bytes(estimateBytes);
    }

    public Reason reason() {
        return reason;
    }

    public Tier tier() {
        return tier;
    }

    /** True when the statement held its tiers and was waiting for the byte budget. */
    public boolean budget() {
        return budget;
    }

    public Duration waited() {
        return waited;
    }

    public long estimateBytes() {
        return estimateBytes;
    }

    /** True when the gateways were paused (the console's PAUSE) as the statement was refused. */
    public boolean paused() {
        return paused;
    }
}

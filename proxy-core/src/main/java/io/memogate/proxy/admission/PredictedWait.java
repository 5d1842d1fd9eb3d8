package io.memogate.proxy.admission;

import io.memogate.broker.gateway.Tier;
import java.time.Duration;
import java.util.Locale;

/**
 * How long a statement queued for a tier is predicted to wait ({@link WaitPredictor}), and from what.
 *
 * @param tier the tier whose queue it is in
 * @param position its 1-based place in that queue
 * @param permits the tier's limit: statements that may hold its permit at once
 * @param meanHold the weighted mean of how long recent statements held the tier's permit
 * @param expected the wait: {@code position x meanHold / permits}
 */
public record PredictedWait(Tier tier, int position, int permits, Duration meanHold, Duration expected) {

    /** The wait in seconds, one decimal: "12.0 s". */
    public String seconds() {
        return seconds(expected);
    }

    /** What SHOW QUEUE and EXPLAIN ADMISSION say of it: "predicted wait 12.0 s (position 2 for ...)". */
    public String describe() {
        return "predicted wait " + seconds() + " (" + figures() + ")";
    }

    /** What it was predicted from: "position 2 for the LARGE gateway, 1 permit, recent holds 6.0 s on average". */
    public String figures() {
        return "position " + position + " for the " + tier + " gateway, " + permits
                + (permits == 1 ? " permit" : " permits") + ", recent holds " + seconds(meanHold) + " on average";
    }

    static String seconds(Duration duration) {
        return String.format(Locale.ROOT, "%.1f s", duration.toNanos() / 1e9);
    }
}

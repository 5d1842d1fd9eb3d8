package io.memogate.broker.gateway;

import java.time.Duration;

/**
 * One gateway's configuration.
 *
 * <p>It is checked when it becomes part of a {@link GatewaySettings}, not here: only there is its name
 * ("tiers.medium") known, and a message must name the field the user wrote.
 *
 * @param limit statements that may hold this tier's permit at once, at least 1
 * @param fraction F in t = target x F / S: the share of the compile-memory target one statement holding
 *     this tier may plan with before it must also take the next tier; in (0, 1]. LARGE has no next tier,
 *     so its fraction is not used (keep it 1.0)
 * @param maxQueue statements that may wait for this tier; one more is rejected at once. 0 means never
 *     wait: a statement that finds no free permit is rejected
 * @param timeout how long a statement may wait in this tier's queue before it is rejected, positive
 */
public record TierSettings(int limit, double fraction, int maxQueue, Duration timeout) {

    void validate(String path) {
        if (limit < 1) {
            throw new IllegalArgumentException(path + ".limit must be >= 1, was " + limit);
        }
        // Written so that NaN fails too.
        if (!(fraction > 0 && fraction <= 1)) {
            throw new IllegalArgumentException(path + ".fraction must be in (0, 1], was " + fraction);
        }
        if (maxQueue < 0) {
            throw new IllegalArgumentException(path + ".maxQueue must be >= 0, was " + maxQueue);
        }
        if (timeout == null) {
            throw new IllegalArgumentException(path + ".timeout must be set");
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException(path + ".timeout must be positive, was " + timeout);
        }
    }

    public TierSettings withLimit(int limit) {
        return new TierSettings(limit, fraction, maxQueue, timeout);
    }

    public TierSettings withFraction(double fraction) {
        return new TierSettings(limit, fraction, maxQueue, timeout);
    }

    public TierSettings withMaxQueue(int maxQueue) {
        return new TierSettings(limit, fraction, maxQueue, timeout);
    }

    public TierSettings withTimeout(Duration timeout) {
        return new TierSettings(limit, fraction, maxQueue, timeout);
    }
}

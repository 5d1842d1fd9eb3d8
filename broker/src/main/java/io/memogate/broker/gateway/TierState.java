package io.memogate.broker.gateway;

import java.time.Duration;

/**
 * A snapshot of one gateway, for metrics and the admin console's SHOW TIERS.
 *
 * @param active statements holding this tier's permit; may exceed {@code limit} for a while after the
 *     limit was lowered, until they release
 * @param waiting statements in this tier's queue (not those waiting for the byte budget)
 * @param thresholdBytes the estimate from which a statement needs this tier, now: t0 for SMALL,
 *     t1 = target x F_small / S_small for MEDIUM, t2 = target x F_medium / S_medium for LARGE
 * @param fraction this tier's configured F (used for the next tier's threshold)
 * @param admittedTotal statements admitted while holding this tier, since start
 * @param timeoutsTotal statements rejected because they waited too long in this tier's queue, or for the
 *     byte budget while this was the highest tier they held
 * @param queueFullTotal statements rejected because this tier's queue was full
 */
public record TierState(Tier tier, int limit, int active, int waiting, long thresholdBytes, double fraction,
                        Duration timeout, long admittedTotal, long timeoutsTotal, long queueFullTotal) {
}

package io.memogate.broker.gateway;

import java.time.Duration;

/**
 * One waiting statement, for the admin console's SHOW QUEUE.
 *
 * @param tier the tier whose queue it is in, or null when it waits for the byte budget
 * @param forBudget true when it holds its tiers and waits for the byte budget
 * @param position 1-based place in that queue
 * @param waited time since it first had to wait (across all the queues it went through)
 * @param tag what the caller passed to {@link Gateways#acquire(long, long, Object)} (client, user,
 *     fingerprint), or null
 * @param paused true when the gateways were paused (the console's PAUSE) as this was read: then the pause,
 *     not the server's load, is what holds the statement, and the client should be told so
 * @param instance the proxy of a fleet whose client sent it; null for gateways of this proxy alone
 */
public record WaitingStatement(Tier tier, boolean forBudget, int position, long estimateBytes, long connection,
                               Duration waited, Object tag, boolean paused, String instance) {

    /** A statement waiting in this proxy's own gateways. */
    public WaitingStatement(Tier tier, boolean forBudget, int position, long estimateBytes, long connection,
                            Duration waited, Object tag, boolean paused) {
        this(tier, forBudget, position, estimateBytes, connection, waited, tag, paused, null);
    }
}

package io.memogate.broker;

/** Where the broker's target comes from. */
public enum BrokerMode {
    /** The last poll succeeded; the target follows the server. */
    LIVE,
    /** Polls fail, but the last good one is younger than the grace period: its target is kept. */
    STALE,
    /** Nothing recent is known (no good poll yet, or the grace period ran out): the static target. */
    STATIC
}

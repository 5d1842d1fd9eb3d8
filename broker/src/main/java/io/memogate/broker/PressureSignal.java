package io.memogate.broker;

/** Why the broker shrinks the compile-memory target; see {@link TargetPolicy} for each test. */
public enum PressureSignal {
    /**
     * More bytes spilled to temporary files per second than in the interval before: the memory sorts and
     * hashes may use (PostgreSQL: work_mem) is short.
     */
    SPILLS_RISING,
    /** The buffer hit ratio fell by more than five points since the interval before: the cache is squeezed. */
    HIT_RATIO_FALLING,
    /** The host is close to running out of memory. */
    MEMORY_NEAR_LIMIT
}

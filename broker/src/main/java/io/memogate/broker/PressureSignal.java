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
    MEMORY_NEAR_LIMIT,
    /**
     * Compiles waited at the server's own compile gates during the last interval (SQL Server:
     * RESOURCE_SEMAPHORE_QUERY_COMPILE): the server itself finds compile memory short.
     */
    COMPILE_WAITS,
    /**
     * Tasks waited longer for memory per second than in the interval before (SQL Server: RESOURCE_SEMAPHORE,
     * RESERVED_MEMORY_ALLOCATION_EXT, MEMORY_ALLOCATION_EXT, RESMGR_THROTTLED).
     */
    MEMORY_WAITS_RISING
}

package io.memogate.estimator.dialect;

/**
 * The settings of a server's planner that a session can change and an estimate depends on (for PostgreSQL,
 * {@code io.memogate.estimator.postgres.PlannerSettings}). Immutable values with equality by value: an
 * estimate is cached under the settings it was made with.
 */
public interface DialectSettings {

    /**
     * These settings after the session sets {@code name} to {@code value}, as the server would apply it, read
     * from a SET statement, a {@code set_config} call or a routine's SET clause. The value {@code default}
     * restores the server's default (RESET). A name the model does not use, and a value the server would
     * refuse, return these settings unchanged: the server keeps the old value of a refused SET too.
     */
    DialectSettings with(String name, String value);

    /**
     * Whether grouping over a partitioned table is planned partition by partition (PostgreSQL's
     * {@code enable_partitionwise_aggregate}), which makes one grouped table of fewer partitions worth estimating.
     */
    default boolean groupsPartitionwise() {
        return false;
    }
}

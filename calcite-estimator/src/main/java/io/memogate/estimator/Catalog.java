package io.memogate.estimator;

import io.memogate.estimator.planner.IndexedColumns;
import io.memogate.estimator.planner.PartitionedTables;
import io.memogate.estimator.planner.TableStatistics;
import java.util.Objects;

/**
 * What the estimator knows of the database a statement runs in, besides the statement: the indexes that
 * give its tables parameterized scans, the partitioned tables whose partitions the planner plans one by one, the views and inlinable SQL functions whose queries PostgreSQL
 * puts in their place, and the functions and procedures whose queries it plans while they run, called or
 * fired by triggers; and the tables' row counts and index statistics, which MySQL's join search prices its
 * orders by. Equal when its parts are the same instances, so an estimate cache can key on it cheaply.
 */
public record Catalog(IndexedColumns indexes, ViewDefinitions views, FunctionDefinitions functions,
                      RoutineDefinitions routines, TriggerDefinitions triggers, PartitionedTables partitions,
                      TableStatistics statistics) {

    /** Nothing read: estimates come from the SQL alone. */
    public static final Catalog NONE = new Catalog(IndexedColumns.NONE, ViewDefinitions.NONE, FunctionDefinitions.NONE,
            RoutineDefinitions.NONE, TriggerDefinitions.NONE, PartitionedTables.NONE, TableStatistics.NONE);

    public Catalog {
        Objects.requireNonNull(indexes, "indexes");
        Objects.requireNonNull(views, "views");
        Objects.requireNonNull(functions, "functions");
        Objects.requireNonNull(routines, "routines");
        Objects.requireNonNull(triggers, "triggers");
        Objects.requireNonNull(partitions, "partitions");
        Objects.requireNonNull(statistics, "statistics");
    }

    /** Everything but table statistics (PostgreSQL's catalog). */
    public Catalog(IndexedColumns indexes, ViewDefinitions views, FunctionDefinitions functions,
                   RoutineDefinitions routines, TriggerDefinitions triggers, PartitionedTables partitions) {
        this(indexes, views, functions, routines, triggers, partitions, TableStatistics.NONE);
    }

    /** Table statistics alone (MySQL's catalog). */
    public static Catalog of(TableStatistics statistics) {
        return statistics == TableStatistics.NONE ? NONE : new Catalog(IndexedColumns.NONE, ViewDefinitions.NONE,
                FunctionDefinitions.NONE, RoutineDefinitions.NONE, TriggerDefinitions.NONE, PartitionedTables.NONE,
                statistics);
    }

    /** Indexes, views, functions, routines and triggers, and no partitioned table known. */
    public Catalog(IndexedColumns indexes, ViewDefinitions views, FunctionDefinitions functions,
                   RoutineDefinitions routines, TriggerDefinitions triggers) {
        this(indexes, views, functions, routines, triggers, PartitionedTables.NONE);
    }

    /** Indexes, views, inlinable functions and routines, and no trigger known. */
    public Catalog(IndexedColumns indexes, ViewDefinitions views, FunctionDefinitions functions,
                   RoutineDefinitions routines) {
        this(indexes, views, functions, routines, TriggerDefinitions.NONE);
    }

    /** Indexes, views and inlinable functions, and no routine known. */
    public Catalog(IndexedColumns indexes, ViewDefinitions views, FunctionDefinitions functions) {
        this(indexes, views, functions, RoutineDefinitions.NONE);
    }

    /** Indexes and views, and no function known. */
    public Catalog(IndexedColumns indexes, ViewDefinitions views) {
        this(indexes, views, FunctionDefinitions.NONE);
    }

    /**
     * Whether {@code other} says the same: a catalog read again that found nothing new. The reader then
     * keeps the instance it had, and with it every estimate cached under it (the caches key on identity),
     * instead of estimating again and keeping the old definitions alive in the caches' keys.
     */
    public boolean sameContent(Catalog other) {
        return indexes.sameContent(other.indexes) && views.sameContent(other.views)
                && functions.sameContent(other.functions) && routines.sameContent(other.routines)
                && triggers.sameContent(other.triggers) && partitions.sameContent(other.partitions)
                && statistics.sameContent(other.statistics);
    }

    /** Whether a statement may run a routine whose queries the estimate follows: one it calls, or a trigger's. */
    public boolean runsRoutines() {
        return !routines.isEmpty() || !triggers.isEmpty();
    }

    /** Indexes, and no view or function known. */
    public static Catalog of(IndexedColumns indexes) {
        return indexes == IndexedColumns.NONE ? NONE : new Catalog(indexes, ViewDefinitions.NONE);
    }
}

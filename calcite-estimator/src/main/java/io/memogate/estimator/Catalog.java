package io.memogate.estimator;

import io.memogate.estimator.planner.IndexedColumns;
import java.util.Objects;

/**
 * What the estimator knows of the database a statement runs in, besides the statement: the indexes that
 * give its tables parameterized scans, and the views whose queries PostgreSQL expands in place. Equal when
 * both parts are the same instances, so an estimate cache can key on it cheaply.
 */
public record Catalog(IndexedColumns indexes, ViewDefinitions views) {

    /** Nothing read: estimates come from the SQL alone. */
    public static final Catalog NONE = new Catalog(IndexedColumns.NONE, ViewDefinitions.NONE);

    public Catalog {
        Objects.requireNonNull(indexes, "indexes");
        Objects.requireNonNull(views, "views");
    }

    /** Indexes, and no view known. */
    public static Catalog of(IndexedColumns indexes) {
        return indexes == IndexedColumns.NONE ? NONE : new Catalog(indexes, ViewDefinitions.NONE);
    }
}

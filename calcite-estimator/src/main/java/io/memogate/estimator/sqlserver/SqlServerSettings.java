package io.memogate.estimator.sqlserver;

import io.memogate.estimator.dialect.DialectSettings;

/**
 * The settings of SQL Server's optimizer that a session can change and the model reads: none yet. The optimizer's
 * search is bounded by its own task budget, not by a session setting (MAXDOP, FORCEPLAN and the query hints of
 * OPTION change the plan more than the memory of finding it), so every session estimates alike.
 */
public record SqlServerSettings() implements DialectSettings {

    public static final SqlServerSettings DEFAULTS = new SqlServerSettings();

    /** Unchanged: no setting is modelled. */
    @Override
    public SqlServerSettings with(String name, String value) {
        return this;
    }
}

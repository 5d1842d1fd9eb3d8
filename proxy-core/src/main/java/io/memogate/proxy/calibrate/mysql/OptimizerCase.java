package io.memogate.proxy.calibrate.mysql;

import io.memogate.estimator.mysql.OptimizerSettings;
import java.util.Objects;

/**
 * One statement of a MySQL calibration, EXPLAINed under its optimizer settings.
 *
 * @param name what the report calls it ("clique 10, prune 0, depth 62")
 * @param sql the statement
 * @param settings the session's optimizer_search_depth and optimizer_prune_level for it
 * @param exactCount whether the model counts its join search exactly (cliques, and any pruned search): only
 *     those fit the time per partial order; the count of a star or chain over primary keys is an upper bound
 */
public record OptimizerCase(String name, String sql, OptimizerSettings settings, boolean exactCount) {

    public OptimizerCase {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(sql, "sql");
        Objects.requireNonNull(settings, "settings");
    }
}

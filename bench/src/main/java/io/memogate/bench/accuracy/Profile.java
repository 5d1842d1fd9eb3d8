package io.memogate.bench.accuracy;

import io.memogate.estimator.postgres.PlannerSettings;
import java.util.Map;

/**
 * Planner settings a corpus is planned under, set in the measuring session and given to the estimator.
 *
 * @param name how the report names it
 * @param settings PostgreSQL settings, by name
 */
record Profile(String name, Map<String, String> settings) {

    /** PostgreSQL's own defaults. */
    static final Profile DEFAULT = new Profile("default", Map.of());
    /** As BI users tune it ("wide"): joins of up to 19 items plan exhaustively. */
    static final Profile WIDE = new Profile("wide", Map.of(
            "join_collapse_limit", "20", "from_collapse_limit", "20", "geqo_threshold", "20"));

    Profile {
        settings = Map.copyOf(settings);
    }

    PlannerSettings plannerSettings() {
        PlannerSettings s = PlannerSettings.DEFAULTS;
        for (Map.Entry<String, String> e : settings.entrySet()) {
            s = s.with(e.getKey(), e.getValue());
        }
        return s;
    }
}

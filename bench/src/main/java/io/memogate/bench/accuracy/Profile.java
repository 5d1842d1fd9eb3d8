package io.memogate.bench.accuracy;

import io.memogate.estimator.postgres.PlannerSettings;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

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
    /** PostgreSQL's defaults with Memoize off, what a DBA sets to cut the planner memory of LIMIT reports. */
    static final Profile NO_MEMOIZE = new Profile("no-memoize", Map.of("enable_memoize", "off"));
    /** Wide, with Memoize off. */
    static final Profile WIDE_NO_MEMOIZE = new Profile("wide-no-memoize", Map.of(
            "join_collapse_limit", "20", "from_collapse_limit", "20", "geqo_threshold", "20", "enable_memoize", "off"));
    /** Every profile, as {@code --profiles} names them. */
    static final List<Profile> ALL = List.of(DEFAULT, WIDE, NO_MEMOIZE, WIDE_NO_MEMOIZE);

    Profile {
        settings = Map.copyOf(settings);
    }

    /** The profile {@code --profiles} calls {@code name}. */
    static Profile named(String name) {
        return ALL.stream().filter(profile -> profile.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown profile " + name + " ("
                        + ALL.stream().map(Profile::name).collect(Collectors.joining(", ")) + ")"));
    }

    PlannerSettings plannerSettings() {
        PlannerSettings s = PlannerSettings.DEFAULTS;
        for (Map.Entry<String, String> e : settings.entrySet()) {
            s = s.with(e.getKey(), e.getValue());
        }
        return s;
    }
}

package io.memogate.proxy.admission;

import io.memogate.estimator.dialect.DialectSettings;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Tighter planner settings a statement may run under instead of queueing for a compile-memory target it can
 * never fit: the outside-the-engine form of the paper's "best plan found so far when compile memory runs out"
 * (Baryshnikov et al., CIDR 2007, section 4), which bounds the search before it starts. The protocol wing offers
 * a ladder of them, least restrictive first, and sets the chosen one for that statement only.
 *
 * @param settings the settings to change, by the server's names, in the order they are set
 */
public record Degradation(Map<String, String> settings) {

    public Degradation {
        if (settings.isEmpty()) {
            throw new IllegalArgumentException("a degradation changes at least one setting");
        }
        settings = Collections.unmodifiableMap(new LinkedHashMap<>(settings));
    }

    /** {@code session}'s settings with these changed: what the estimator plans the statement with. */
    public DialectSettings applyTo(DialectSettings session) {
        DialectSettings changed = session;
        for (Map.Entry<String, String> setting : settings.entrySet()) {
            changed = changed.with(setting.getKey(), setting.getValue());
        }
        return changed;
    }

    /** "join_collapse_limit = 4, from_collapse_limit = 4". */
    public String describe() {
        return settings.entrySet().stream().map(s -> s.getKey() + " = " + s.getValue())
                .collect(Collectors.joining(", "));
    }
}

package io.memogate.proxy.reload;

import io.memogate.proxy.config.ConfigSettings.Applies;

/**
 * One setting a reload found changed.
 *
 * @param key the path as the file spells it, e.g. {@code admission.tiers.small.limit}
 * @param oldValue the value in force before, empty when the setting did not exist
 * @param newValue the value in the file, empty when it is gone
 * @param applied false when the change needs a restart and the old value stays in force
 */
public record ConfigChange(String key, String oldValue, String newValue, Applies applies, boolean applied) {

    /** "live", "new sessions", or "requires restart (not applied)": what the operator needs to know. */
    public String effect() {
        return applied ? applies.label() : "requires restart (not applied)";
    }

    /** "5 -> 8", "(unset) -> ********": the values as every log line that names this change shows them. */
    public String transition() {
        return show(oldValue) + " -> " + show(newValue);
    }

    @Override
    public String toString() {
        return key + ": " + transition() + " (" + effect() + ")";
    }

    private static String show(String value) {
        return value.isEmpty() ? "(unset)" : value;
    }
}

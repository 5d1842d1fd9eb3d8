package io.memogate.bench.report;

import io.memogate.bench.targets.TargetKind;
import java.util.Objects;

/**
 * A target as the report names it.
 *
 * @param description what ran (version, configuration), or why it was skipped
 */
public record TargetInfo(TargetKind kind, boolean skipped, String description) {

    public TargetInfo {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(description, "description");
    }
}

package io.memogate.bench.targets;

import java.util.Objects;

/** The outcome of bringing up one target: running, or skipped because its tool is not installed. */
public sealed interface Launch {

    TargetKind kind();

    record Started(Target target) implements Launch {
        public Started {
            Objects.requireNonNull(target, "target");
        }

        @Override
        public TargetKind kind() {
            return target.kind();
        }
    }

    /** @param reason shown in the report, e.g. "not installed: skipped" */
    record Skipped(TargetKind kind, String reason) implements Launch {
        public Skipped {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(reason, "reason");
        }
    }
}

package io.memogate.bench.report;

import io.memogate.bench.pgbench.PgbenchResult;
import io.memogate.bench.pgbench.QueryMode;
import io.memogate.bench.targets.TargetKind;
import java.util.Objects;

/**
 * One recorded pgbench run.
 *
 * @param position 1-based place of this run within its round and mode (the rotation, see Schedule)
 */
public record Measurement(QueryMode mode, int round, int position, TargetKind target, PgbenchResult result) {

    public Measurement {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(result, "result");
    }

    public boolean succeeded() {
        return result instanceof PgbenchResult.Succeeded;
    }
}

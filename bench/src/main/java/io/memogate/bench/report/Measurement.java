package io.memogate.bench.report;

import io.memogate.bench.pgbench.PgbenchResult;
import io.memogate.bench.pgbench.QueryMode;
import io.memogate.bench.targets.TargetKind;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * One recorded pgbench run.
 *
 * @param position  1-based place of this run within its round and mode (the rotation, see Schedule)
 * @param targetCpu CPU time the target's relaying process used during the run; empty for direct
 * @param machine   the whole machine's CPU during the run; empty where it could not be read
 */
public record Measurement(QueryMode mode, int round, int position, TargetKind target, PgbenchResult result,
                          Optional<Duration> targetCpu, Optional<MachineLoad> machine) {

    public Measurement {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(targetCpu, "targetCpu");
        Objects.requireNonNull(machine, "machine");
    }

    public boolean succeeded() {
        return result instanceof PgbenchResult.Succeeded;
    }

    /**
     * The relaying process's CPU per transaction, in microseconds. The CPU is sampled around the whole
     * pgbench process, connection set-up included, so this slightly overstates the steady state.
     */
    public OptionalDouble cpuMicrosPerTransaction() {
        if (targetCpu.isEmpty() || !(result instanceof PgbenchResult.Succeeded ok) || ok.transactions() == 0) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(targetCpu.get().toNanos() / 1000.0 / ok.transactions());
    }

    /** The whole machine's CPU per transaction, in microseconds: relay, pgbench, server and kernel. */
    public OptionalDouble machineMicrosPerTransaction() {
        if (machine.isEmpty() || !(result instanceof PgbenchResult.Succeeded ok) || ok.transactions() == 0) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(machine.get().busyMicros() / ok.transactions());
    }

    /** The share of the machine's CPU time left idle during the run. */
    public OptionalDouble idleShare() {
        return machine.isEmpty() ? OptionalDouble.empty() : OptionalDouble.of(machine.get().idleShare());
    }
}

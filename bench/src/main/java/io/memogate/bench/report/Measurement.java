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
 * @param targetCpu       CPU time the target's relaying process used while it was read (the whole run, or the
 *                        window of it the benchmark counts); empty for direct
 * @param machine         the whole machine's CPU during the whole run; empty where it could not be read
 * @param cpuTransactions the transactions pgbench finished while {@code targetCpu} was read; empty for the whole
 *                        run (pgbench's own count)
 */
public record Measurement(QueryMode mode, int round, int position, TargetKind target, PgbenchResult result,
                          Optional<Duration> targetCpu, Optional<MachineLoad> machine, OptionalDouble cpuTransactions) {

    /** A run whose relay CPU was read around the whole pgbench run. */
    public Measurement(QueryMode mode, int round, int position, TargetKind target, PgbenchResult result,
                       Optional<Duration> targetCpu, Optional<MachineLoad> machine) {
        this(mode, round, position, target, result, targetCpu, machine, OptionalDouble.empty());
    }

    public Measurement {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(targetCpu, "targetCpu");
        Objects.requireNonNull(machine, "machine");
        Objects.requireNonNull(cpuTransactions, "cpuTransactions");
    }

    public boolean succeeded() {
        return result instanceof PgbenchResult.Succeeded;
    }

    /**
     * The relaying process's CPU per transaction, in microseconds. Read around the whole pgbench process, the CPU
     * includes the clients' connection set-up, which at hundreds of clients is a large part of it; read over a
     * window of the run ({@code cpuTransactions}), it is the steady state's.
     */
    public OptionalDouble cpuMicrosPerTransaction() {
        if (targetCpu.isEmpty() || !(result instanceof PgbenchResult.Succeeded ok)) {
            return OptionalDouble.empty();
        }
        double transactions = cpuTransactions.orElse(ok.transactions());
        return transactions <= 0 ? OptionalDouble.empty()
                : OptionalDouble.of(targetCpu.get().toNanos() / 1000.0 / transactions);
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

package io.memogate.bench.passthrough;

import io.memogate.bench.pgbench.QueryMode;
import io.memogate.bench.targets.TargetKind;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * One successful run's cost per transaction: its relay's CPU and, when counted, its system calls, context switches
 * and allocation ({@link RunCounts}); and where the machine's CPU went over the same window.
 *
 * @param clients pgbench -c of the run
 * @param split   the CPU of pgbench, the server's processes, the relay and the rest over the steady window
 */
record CountedRun(int clients, QueryMode mode, int round, TargetKind target, long transactions, double tps,
                  OptionalDouble cpuMicrosPerTransaction, Optional<RunCounts> counts,
                  Optional<ProcessCpu.CpuSplit> split) {
}

package io.memogate.bench.passthrough;

import io.memogate.bench.pgbench.QueryMode;
import io.memogate.bench.targets.TargetKind;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * One successful run's cost per transaction: its relay's CPU and, when counted, its system calls, context switches
 * and allocation ({@link RunCounts}).
 *
 * @param clients pgbench -c of the run
 */
record CountedRun(int clients, QueryMode mode, int round, TargetKind target, long transactions, double tps,
                  OptionalDouble cpuMicrosPerTransaction, Optional<RunCounts> counts) {
}

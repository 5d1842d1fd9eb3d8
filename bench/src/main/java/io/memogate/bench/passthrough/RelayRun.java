package io.memogate.bench.passthrough;

import io.memogate.bench.pgbench.PgbenchRun;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * One pgbench run and what its relay spent while it was read ({@link CountWindow}).
 *
 * @param cpu             the relay's CPU time over the window; empty when it could not be read
 * @param cpuTransactions the transactions in that window; empty when it is the whole run (pgbench's count)
 * @param counts          the relay's counts over the window, when asked for
 * @param split           where the machine's CPU went over the steady window; empty over the whole run (pgbench
 *                        has exited by the second reading) or where /proc cannot be read
 */
record RelayRun(PgbenchRun run, Optional<Duration> cpu, OptionalDouble cpuTransactions, Optional<RunCounts> counts,
                Optional<ProcessCpu.CpuSplit> split) {
}

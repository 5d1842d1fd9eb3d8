package io.memogate.bench.passthrough;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The counts of one relaying process over one run ({@link RunCounts}): started before the part of the run counted,
 * stopped after it. Reading them costs the relay nothing while the run lasts but perf's counters; the thread dump
 * that gives a separate JVM's allocation is taken at each end. Each reading is stamped with the instant it holds
 * for, so that it is divided by the transactions between its own two instants ({@link TransactionCount}).
 */
final class CountProbe {

    private final long pid;
    private final Instant switchesFrom;
    private final ThreadSwitches switchesBefore;
    private final Instant callsFrom;
    private final Optional<SyscallCounter.Running> syscalls;
    private final Optional<AllocationCounter.Allocated> allocatedBefore;

    private CountProbe(long pid, Instant switchesFrom, ThreadSwitches switchesBefore, Instant callsFrom,
                       Optional<SyscallCounter.Running> syscalls, Optional<AllocationCounter.Allocated> allocatedBefore) {
        this.pid = pid;
        this.switchesFrom = switchesFrom;
        this.switchesBefore = switchesBefore;
        this.callsFrom = callsFrom;
        this.syscalls = syscalls;
        this.allocatedBefore = allocatedBefore;
    }

    /**
     * perf first (counting from when it has opened its counters), then the quick reading, then the thread dump.
     *
     * @param output where perf writes its counts for this run
     */
    static CountProbe start(long pid, Optional<SyscallCounter> counter, Path output)
            throws IOException, InterruptedException {
        Optional<SyscallCounter.Running> running = counter.isEmpty() ? Optional.empty()
                : Optional.of(counter.get().start(pid, output));
        if (running.isPresent()) {
            running.get().awaitCounting();
        }
        Instant callsFrom = Instant.now();
        Instant switchesFrom = Instant.now();
        ThreadSwitches switches = ThreadSwitches.of(pid);
        return new CountProbe(pid, switchesFrom, switches, callsFrom, running, AllocationCounter.read(pid));
    }

    /** Stops the counting; the counts are made per transaction once pgbench's count is known. */
    Stopped stop() throws IOException, InterruptedException {
        Instant switchesTo = Instant.now();
        ThreadSwitches switches = ThreadSwitches.of(pid).since(switchesBefore);
        Optional<AllocationCounter.Allocated> allocatedAfter = allocatedBefore.isEmpty() ? Optional.empty()
                : AllocationCounter.read(pid);
        Instant callsTo = Instant.now();
        Map<String, Long> calls = syscalls.isEmpty() ? Map.of() : syscalls.get().stop();
        OptionalLong allocated = allocatedAfter.isEmpty() ? OptionalLong.empty()
                : OptionalLong.of(allocatedAfter.get().bytes() - allocatedBefore.get().bytes());
        return transactions -> RunCounts.of(calls, transactions.between(callsFrom, callsTo).orElse(0),
                switches, transactions.between(switchesFrom, switchesTo).orElse(0),
                allocated, allocatedAfter.isEmpty() ? 0 : transactions.between(allocatedBefore.get().at(),
                        allocatedAfter.get().at()).orElse(0));
    }

    /** The counts of a stopped probe, to be divided by the transactions of the span each was counted over. */
    @FunctionalInterface
    interface Stopped {
        RunCounts counts(TransactionCount transactions);
    }
}

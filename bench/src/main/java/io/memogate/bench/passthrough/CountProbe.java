package io.memogate.bench.passthrough;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The counts of one relaying process over one run ({@link RunCounts}): started before pgbench, stopped after it.
 * Reading them costs the relay nothing while the run lasts but perf's counters; the thread dump that gives a
 * separate JVM's allocation is taken before and after.
 */
final class CountProbe {

    private final long pid;
    private final ThreadSwitches switchesBefore;
    private final OptionalLong allocatedBefore;
    private final Optional<SyscallCounter.Running> syscalls;

    private CountProbe(long pid, ThreadSwitches switchesBefore, OptionalLong allocatedBefore,
                       Optional<SyscallCounter.Running> syscalls) {
        this.pid = pid;
        this.switchesBefore = switchesBefore;
        this.allocatedBefore = allocatedBefore;
        this.syscalls = syscalls;
    }

    /** @param output where perf writes its counts for this run */
    static CountProbe start(long pid, Optional<SyscallCounter> counter, Path output)
            throws IOException, InterruptedException {
        OptionalLong allocated = AllocationCounter.allocated(pid);
        Optional<SyscallCounter.Running> running = counter.isEmpty() ? Optional.empty()
                : Optional.of(counter.get().start(pid, output));
        return new CountProbe(pid, ThreadSwitches.of(pid), allocated, running);
    }

    RunCounts stop() throws IOException, InterruptedException {
        ThreadSwitches switches = ThreadSwitches.of(pid).since(switchesBefore);
        Map<String, Long> calls = syscalls.isEmpty() ? Map.of() : syscalls.get().stop();
        OptionalLong allocatedAfter = allocatedBefore.isEmpty() ? OptionalLong.empty()
                : AllocationCounter.allocated(pid);
        OptionalLong allocated = allocatedAfter.isEmpty() ? OptionalLong.empty()
                : OptionalLong.of(allocatedAfter.getAsLong() - allocatedBefore.getAsLong());
        return RunCounts.of(calls, switches, allocated);
    }
}

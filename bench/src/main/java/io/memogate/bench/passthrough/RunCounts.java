package io.memogate.bench.passthrough;

import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What a relaying process did during one pgbench run, counted rather than timed: its system calls (all, and the
 * kinds a relay makes: reads, writes, waits for readiness, futex wake-ups), its threads' context switches, and the
 * bytes a Java relay allocated. Counts do not move with other load on the machine the way TPS and CPU time do;
 * what does move them is batching: a relay that finds more sockets ready per wake-up waits fewer times per
 * transaction.
 *
 * @param syscalls          per kind ({@link SyscallCounter#KINDS}, and {@code all}); empty when perf could not count
 * @param voluntarySwitches context switches the threads asked for (blocking in epoll_wait, futex, ...)
 * @param involuntarySwitches context switches the scheduler imposed (time slice over, a woken thread preferred)
 * @param allocatedBytes    bytes a Java relay's threads allocated; empty for a tool that is not Java
 */
record RunCounts(SortedMap<String, Long> syscalls, long voluntarySwitches, long involuntarySwitches,
                 OptionalLong allocatedBytes) {

    RunCounts {
        syscalls = new TreeMap<>(syscalls);
    }

    /** {@code count} over {@code transactions}, or empty when there were none. */
    static OptionalDouble perTransaction(long count, long transactions) {
        return transactions <= 0 ? OptionalDouble.empty() : OptionalDouble.of((double) count / transactions);
    }

    OptionalDouble syscallsPerTransaction(String kind, long transactions) {
        Long count = syscalls.get(kind);
        return count == null ? OptionalDouble.empty() : perTransaction(count, transactions);
    }

    /** The sum of several kinds (say, every way to read a socket); empty when perf counted none of them. */
    OptionalDouble syscallsPerTransaction(Iterable<String> kinds, long transactions) {
        long sum = 0;
        boolean any = false;
        for (String kind : kinds) {
            Long count = syscalls.get(kind);
            if (count != null) {
                sum += count;
                any = true;
            }
        }
        return any ? perTransaction(sum, transactions) : OptionalDouble.empty();
    }

    OptionalDouble switchesPerTransaction(long transactions) {
        return perTransaction(voluntarySwitches + involuntarySwitches, transactions);
    }

    OptionalDouble allocatedPerTransaction(long transactions) {
        return allocatedBytes.isEmpty() ? OptionalDouble.empty()
                : perTransaction(allocatedBytes.getAsLong(), transactions);
    }

    static RunCounts of(Map<String, Long> syscalls, ThreadSwitches switches, OptionalLong allocatedBytes) {
        return new RunCounts(new TreeMap<>(syscalls), switches.voluntary(), switches.involuntary(), allocatedBytes);
    }
}

package io.memogate.bench.passthrough;

import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What a relaying process did during one pgbench run, counted rather than timed: its system calls (all, and the
 * kinds a relay makes: reads, writes, waits for readiness, futex wake-ups), its threads' context switches, and the
 * bytes a Java relay allocated, each with the transactions pgbench finished while it was counted. Counts do not
 * move with other load on the machine the way TPS and CPU time do; what does move them is batching: a relay that
 * finds more sockets ready per wake-up waits fewer times per transaction.
 *
 * @param syscalls               per kind ({@link SyscallCounter#KINDS}, and {@code all}); empty when perf could not
 *                               count
 * @param syscallTransactions    the transactions while the calls were counted; 0 when not known (then no call is
 *                               reported per transaction), as for the two below
 * @param voluntarySwitches      context switches the threads asked for (blocking in epoll_wait, futex, ...)
 * @param involuntarySwitches    context switches the scheduler imposed (time slice over, a woken thread preferred)
 * @param allocatedBytes         bytes a Java relay's threads allocated; empty for a tool that is not Java
 */
record RunCounts(SortedMap<String, Long> syscalls, double syscallTransactions, long voluntarySwitches,
                 long involuntarySwitches, double switchTransactions, OptionalLong allocatedBytes,
                 double allocationTransactions) {

    RunCounts {
        syscalls = new TreeMap<>(syscalls);
    }

    /** {@code count} over {@code transactions}, or empty when there were none. */
    static OptionalDouble perTransaction(long count, double transactions) {
        return transactions <= 0 ? OptionalDouble.empty() : OptionalDouble.of(count / transactions);
    }

    OptionalDouble syscallsPerTransaction(String kind) {
        Long count = syscalls.get(kind);
        return count == null ? OptionalDouble.empty() : perTransaction(count, syscallTransactions);
    }

    /** The sum of several kinds (say, every way to read a socket); empty when perf counted none of them. */
    OptionalDouble syscallsPerTransaction(Iterable<String> kinds) {
        long sum = 0;
        boolean any = false;
        for (String kind : kinds) {
            Long count = syscalls.get(kind);
            if (count != null) {
                sum += count;
                any = true;
            }
        }
        return any ? perTransaction(sum, syscallTransactions) : OptionalDouble.empty();
    }

    OptionalDouble switchesPerTransaction() {
        return perTransaction(voluntarySwitches + involuntarySwitches, switchTransactions);
    }

    OptionalDouble involuntarySwitchesPerTransaction() {
        return perTransaction(involuntarySwitches, switchTransactions);
    }

    OptionalDouble allocatedPerTransaction() {
        return allocatedBytes.isEmpty() ? OptionalDouble.empty()
                : perTransaction(allocatedBytes.getAsLong(), allocationTransactions);
    }

    static RunCounts of(Map<String, Long> syscalls, double syscallTransactions, ThreadSwitches switches,
                        double switchTransactions, OptionalLong allocatedBytes, double allocationTransactions) {
        return new RunCounts(new TreeMap<>(syscalls), syscallTransactions, switches.voluntary(),
                switches.involuntary(), switchTransactions, allocatedBytes, allocationTransactions);
    }
}

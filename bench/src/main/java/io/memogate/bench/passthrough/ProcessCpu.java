package io.memogate.bench.passthrough;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Every process's CPU time at one instant, from /proc/PID/stat (user + system of all its threads), with the
 * machine's busy time from /proc/stat: two readings give {@link CpuSplit}, where the machine's CPU went between
 * them. The relay's own CPU is only part of what a relay costs a machine it shares with pgbench and the server:
 * how it batches and wakes its peers moves their CPU too, which only a reading of every process shows.
 *
 * <p>Both files count in USER_HZ ticks, which the kernel's ABI fixes at 100 a second on x86 and arm64 whatever
 * its internal HZ; a tick is 10 ms, so a window of ten seconds on two cores reads about 2,000 of them.
 */
record ProcessCpu(Map<Long, Entry> processes, long machineBusyTicks) {

    static final double MICROS_PER_TICK = 10_000;

    private static final Path PROC = Path.of("/proc");

    /**
     * One process: its command name (at most 15 characters, as the kernel keeps it) and its ticks so far in user mode
     * and in the kernel.
     */
    record Entry(String command, long userTicks, long systemTicks) {

        long ticks() {
            return userTicks + systemTicks;
        }
    }

    /**
     * What the processes of each kind used between two readings, in ticks, and the transactions pgbench made in
     * between.
     *
     * @param relayUser the part of {@code relay} spent in user mode: a relay's own work, where the kernel's part is
     *     mostly the system calls every relay makes for the same traffic
     */
    record CpuSplit(long pgbench, long server, long relay, long relayUser, long benchmark, long others,
                    long machineBusy, double transactions) {

        /** Busy time no process read at both instants accounts for: interrupts, soft interrupts, processes that exited. */
        long unattributed() {
            return Math.max(0, machineBusy - pgbench - server - relay - benchmark - others);
        }

        /** {@code ticks} as microseconds per transaction of the window. */
        double microsPerTransaction(long ticks) {
            return ticks * MICROS_PER_TICK / transactions;
        }
    }

    /** The processes and the machine now; empty where there is no /proc. */
    static Optional<ProcessCpu> read() {
        Optional<CpuCounters> machine = CpuCounters.read();
        if (machine.isEmpty()) {
            return Optional.empty();
        }
        Map<Long, Entry> processes = new HashMap<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(PROC, "[0-9]*")) {
            for (Path entry : entries) {
                try {
                    parseStat(Files.readString(entry.resolve("stat"), StandardCharsets.US_ASCII))
                            .ifPresent(stat -> processes.put(Long.parseLong(entry.getFileName().toString()), stat));
                } catch (IOException | NumberFormatException exited) {
                    // A process that ended between the listing and the read has nothing left to count.
                }
            }
        } catch (IOException e) {
            return Optional.empty();
        }
        return Optional.of(new ProcessCpu(processes, machine.get().busy()));
    }

    /**
     * The command, utime and stime of a /proc/PID/stat line, "pid (comm) state ppid ..." with utime and stime its
     * 14th and 15th fields. The command may hold spaces and parentheses, so the fields are counted from its last
     * closing parenthesis.
     */
    static Optional<Entry> parseStat(String stat) {
        int open = stat.indexOf('(');
        int close = stat.lastIndexOf(')');
        if (open < 0 || close < open) {
            return Optional.empty();
        }
        String[] after = stat.substring(close + 1).strip().split("\\s+");
        // after[0] is field 3 (state), so field k is after[k - 3].
        if (after.length < 13) {
            return Optional.empty();
        }
        try {
            return Optional.of(new Entry(stat.substring(open + 1, close), Long.parseLong(after[11]),
                    Long.parseLong(after[12])));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * Where the CPU went from {@code earlier} to this reading. pgbench and the server's processes are known by their
     * command names; the relay by {@code relayPids} when it runs in processes of its own; the benchmark's JVM
     * ({@code benchmarkPid}) apart, since the in-JVM targets relay there. A process is counted only when both
     * readings hold it.
     */
    CpuSplit since(ProcessCpu earlier, Set<Long> relayPids, long benchmarkPid, double transactions) {
        long pgbench = 0;
        long server = 0;
        long relay = 0;
        long relayUser = 0;
        long benchmark = 0;
        long others = 0;
        for (Map.Entry<Long, Entry> process : processes.entrySet()) {
            Entry before = earlier.processes.get(process.getKey());
            if (before == null || !before.command().equals(process.getValue().command())) {
                continue;
            }
            long used = Math.max(0, process.getValue().ticks() - before.ticks());
            long pid = process.getKey();
            String command = process.getValue().command();
            if (relayPids.contains(pid)) {
                relay += used;
                relayUser += Math.max(0, process.getValue().userTicks() - before.userTicks());
            } else if (pid == benchmarkPid) {
                benchmark += used;
            } else if (command.equals("pgbench")) {
                pgbench += used;
            } else if (command.equals("postgres")) {
                server += used;
            } else {
                others += used;
            }
        }
        return new CpuSplit(pgbench, server, relay, relayUser, benchmark, others,
                machineBusyTicks - earlier.machineBusyTicks, transactions);
    }
}

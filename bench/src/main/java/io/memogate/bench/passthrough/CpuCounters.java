package io.memogate.bench.passthrough;

import io.memogate.bench.report.MachineLoad;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The machine-wide CPU counters of /proc/stat, in clock ticks since boot. Only shares of their
 * differences are used, so the tick length (USER_HZ) never matters.
 *
 * @param busy  user + nice + system + irq + softirq (guest time is already inside user)
 * @param idle  idle + iowait
 * @param steal time the hypervisor gave to other machines
 * @param cpus  the CPUs counted (one "cpuN" line each), whatever the JVM was told it may use
 */
record CpuCounters(long busy, long idle, long steal, int cpus) {

    private static final Path PROC_STAT = Path.of("/proc/stat");

    /** The counters now; empty where there is no /proc/stat (the report then leaves the columns out). */
    static Optional<CpuCounters> read() {
        try {
            return Optional.of(parse(Files.readString(PROC_STAT, StandardCharsets.US_ASCII)));
        } catch (IOException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** Parses /proc/stat: the aggregate line "cpu  user nice system idle iowait irq softirq steal ...". */
    static CpuCounters parse(String procStat) {
        List<String> lines = procStat.lines().toList();
        String[] fields = lines.isEmpty() ? new String[0] : lines.getFirst().strip().split("\\s+");
        if (fields.length < 9 || !fields[0].equals("cpu")) {
            throw new IllegalArgumentException("no aggregate cpu line first in /proc/stat: "
                    + (lines.isEmpty() ? "(empty)" : lines.getFirst()));
        }
        long[] ticks = new long[8];
        for (int i = 0; i < ticks.length; i++) {
            ticks[i] = Long.parseLong(fields[i + 1]);
        }
        int cpus = (int) lines.stream().filter(line -> line.matches("cpu\\d+\\s.*")).count();
        return new CpuCounters(ticks[0] + ticks[1] + ticks[2] + ticks[5] + ticks[6], ticks[3] + ticks[4], ticks[7],
                Math.max(cpus, 1));
    }

    /** The machine's load between {@code earlier} and these counters, {@code wall} apart; empty if no tick passed. */
    Optional<MachineLoad> since(CpuCounters earlier, Duration wall) {
        double busyTicks = busy - earlier.busy;
        double idleTicks = idle - earlier.idle;
        double total = busyTicks + idleTicks + (steal - earlier.steal);
        return total <= 0 ? Optional.empty()
                : Optional.of(new MachineLoad(wall, cpus, busyTicks / total, idleTicks / total));
    }
}

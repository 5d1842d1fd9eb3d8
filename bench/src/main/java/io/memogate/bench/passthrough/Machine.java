package io.memogate.bench.passthrough;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What the report says about the machine, read from /proc (Linux only, as the proxy's epoll transport).
 * The load average is recorded because other builds may share the CPU, which is why every target is
 * measured in the same run and only ratios are compared.
 */
public final class Machine {

    private Machine() {
    }

    public static List<String> describe() {
        List<String> lines = new ArrayList<>();
        lines.add("CPUs: " + Runtime.getRuntime().availableProcessors() + " (" + cpuModel() + ")");
        lines.add("memory: " + memory());
        lines.add("kernel: Linux " + read("/proc/sys/kernel/osrelease").strip());
        lines.add("Java: " + System.getProperty("java.vm.name") + " " + Runtime.version() + " ("
                + System.getProperty("java.vendor") + ")");
        return lines;
    }

    /** "0.52 1.03 1.20" (1, 5 and 15 minutes). */
    public static String loadAverage() {
        String[] fields = read("/proc/loadavg").strip().split("\\s+");
        return fields.length >= 3 ? fields[0] + " " + fields[1] + " " + fields[2] : "unknown";
    }

    private static String cpuModel() {
        return read("/proc/cpuinfo").lines().filter(line -> line.startsWith("model name"))
                .map(line -> line.substring(line.indexOf(':') + 1).strip()).findFirst().orElse("model unknown");
    }

    private static String memory() {
        return read("/proc/meminfo").lines().filter(line -> line.startsWith("MemTotal:"))
                .map(line -> Long.parseLong(line.replaceAll("\\D", "")))
                .map(kib -> String.format(Locale.ROOT, "%.1f GiB", kib / (1024.0 * 1024.0)))
                .findFirst().orElse("unknown");
    }

    /** The file's text, or "unknown": the report is still worth writing without it. */
    private static String read(String path) {
        try {
            return Files.readString(Path.of(path), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "unknown (" + e.getMessage() + ")";
        }
    }
}

package io.memogate.bench.passthrough;

import io.memogate.bench.process.Commands;
import io.memogate.bench.process.CommandResult;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The bytes a Java process's threads have allocated so far: HotSpot counts each thread's allocations exactly (not a
 * sample). In this JVM (the in-JVM proxy targets) from the thread MX bean, all threads since start; in another JVM
 * (the shipped proxy) from {@code jcmd PID Thread.print -e}, its live threads' {@code allocated=} figures. Only
 * ever asked of a process whose command is java: jcmd attaches by sending SIGQUIT, which ends a process that is
 * not a JVM.
 */
final class AllocationCounter {

    private static final Pattern ALLOCATED = Pattern.compile("allocated=(\\d+(?:\\.\\d+)?)([KMG]?)B?\\b");
    private static final Duration JCMD_TIMEOUT = Duration.ofSeconds(30);

    private AllocationCounter() {
    }

    /** The bytes {@code pid}'s threads allocated so far; empty when it is not a JVM or cannot be asked. */
    static OptionalLong allocated(long pid) throws InterruptedException {
        if (pid == ProcessHandle.current().pid()) {
            return OptionalLong.of(((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean())
                    .getTotalThreadAllocatedBytes());
        }
        if (!isJava(pid)) {
            return OptionalLong.empty();
        }
        try {
            Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
            CommandResult dump = Commands.run(List.of(jcmd.toString(), Long.toString(pid), "Thread.print", "-e"),
                    Commands.baseEnvironment(), JCMD_TIMEOUT);
            return dump.exitCode() == 0 ? OptionalLong.of(sum(dump.output())) : OptionalLong.empty();
        } catch (IOException e) {
            return OptionalLong.empty();
        }
    }

    /** The sum of a thread dump's {@code allocated=} figures ("82538K", "64B", "1.2G"). */
    static long sum(String threadDump) {
        Matcher matcher = ALLOCATED.matcher(threadDump);
        double bytes = 0;
        while (matcher.find()) {
            double value = Double.parseDouble(matcher.group(1));
            bytes += switch (matcher.group(2)) {
                case "K" -> value * 1024;
                case "M" -> value * 1024 * 1024;
                case "G" -> value * 1024 * 1024 * 1024;
                default -> value;
            };
        }
        return Math.round(bytes);
    }

    private static boolean isJava(long pid) {
        try {
            return Files.readString(Path.of("/proc", Long.toString(pid), "comm"), StandardCharsets.US_ASCII).strip()
                    .equals("java");
        } catch (IOException e) {
            return false;
        }
    }
}

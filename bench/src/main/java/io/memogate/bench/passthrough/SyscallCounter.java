package io.memogate.bench.passthrough;

import io.memogate.bench.process.Commands;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Counts a process's system calls over a run with {@code perf stat} on the kernel's syscall tracepoints: a counter
 * per event in the kernel, no stop per call as under strace, so the relay batches as it does unobserved. Needs perf
 * and tracepoints the caller may read (root, or perf_event_paranoid low enough); {@link #available} says.
 */
final class SyscallCounter {

    /** Every system call, whatever its kind. */
    static final String ALL = "all";
    /** The kinds a relay's loop makes per message, by their tracepoints' names. */
    static final List<String> KINDS = List.of("read", "recvfrom", "readv", "recvmsg", "write", "sendto", "writev",
            "sendmsg", "epoll_wait", "epoll_pwait", "epoll_pwait2", "io_uring_enter", "futex");
    static final List<String> READS = List.of("read", "recvfrom", "readv", "recvmsg");
    static final List<String> WRITES = List.of("write", "sendto", "writev", "sendmsg");
    static final List<String> WAITS = List.of("epoll_wait", "epoll_pwait", "epoll_pwait2", "io_uring_enter");

    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

    private final Path perf;
    private final List<String> events;

    private SyscallCounter(Path perf, List<String> events) {
        this.perf = perf;
        this.events = events;
    }

    /** A counter for the tracepoints this kernel has, or empty (and why) when perf cannot count here. */
    static Optional<SyscallCounter> available(Path perf, Path scratch) throws InterruptedException {
        List<String> events = new ArrayList<>();
        events.add("raw_syscalls:sys_enter");
        for (String kind : KINDS) {
            if (Files.isDirectory(Path.of("/sys/kernel/tracing/events/syscalls/sys_enter_" + kind))) {
                events.add("syscalls:sys_enter_" + kind);
            }
        }
        try {
            Path output = scratch.resolve("perf-check.csv");
            var result = Commands.run(command(perf, events, output, List.of("--", "true")), Commands.baseEnvironment(),
                    STOP_TIMEOUT);
            return result.exitCode() == 0 && !parse(Files.readString(output)).isEmpty()
                    ? Optional.of(new SyscallCounter(perf, List.copyOf(events))) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Starts counting {@code pid}'s calls (all its threads, and those they start) into {@code output}. */
    Running start(long pid, Path output) throws IOException {
        Process process = new ProcessBuilder(command(perf, events, output, List.of("-p", Long.toString(pid))))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        return new Running(process, output);
    }

    /** A perf stat attached to a process; {@link #stop} ends it and reads its counts. */
    record Running(Process process, Path output) {

        /**
         * Waits until perf has opened its counters on the process's threads (and so counts), at most a few seconds:
         * it takes tens to hundreds of milliseconds after its start on a loaded machine, which a reading stamped at
         * the start would count as calls not made.
         */
        void awaitCounting() throws InterruptedException {
            long deadline = System.nanoTime() + STOP_TIMEOUT.toNanos();
            int seen = -1;
            while (process.isAlive() && System.nanoTime() < deadline) {
                int opened = openedCounters(process.pid());
                if (opened > 0 && opened == seen) {
                    return;
                }
                seen = opened;
                Thread.sleep(10);
            }
        }

        /** The perf_event file descriptors {@code pid} holds. */
        private static int openedCounters(long pid) {
            int count = 0;
            try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "fd"))) {
                for (Path fd : fds) {
                    try {
                        if (Files.readSymbolicLink(fd).toString().contains("perf_event")) {
                            count++;
                        }
                    } catch (IOException closed) {
                        // Closed between the listing and the read.
                    }
                }
            } catch (IOException e) {
                return 0;
            }
            return count;
        }

        /** perf stat writes its counts when interrupted (SIGINT), as on Ctrl-C; SIGTERM would lose them. */
        Map<String, Long> stop() throws IOException, InterruptedException {
            Commands.run(List.of("kill", "-INT", Long.toString(process.pid())), Commands.baseEnvironment(),
                    STOP_TIMEOUT);
            if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException("perf stat (pid " + process.pid() + ") did not stop on SIGINT");
            }
            return parse(Files.readString(output, StandardCharsets.UTF_8));
        }
    }

    private static List<String> command(Path perf, List<String> events, Path output, List<String> what) {
        List<String> command = new ArrayList<>(List.of(perf.toString(), "stat", "-x", ",", "-o", output.toString(),
                "-e", String.join(",", events)));
        command.addAll(what);
        return command;
    }

    /**
     * perf stat's CSV ({@code -x ,}): "count,unit,event,..." per event, comments and blank lines around; a count
     * perf could not take reads "&lt;not counted&gt;" or "&lt;not supported&gt;" and is left out.
     */
    static Map<String, Long> parse(String csv) {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (String line : csv.split("\n")) {
            String[] fields = line.split(",", -1);
            if (line.startsWith("#") || fields.length < 3 || !fields[0].strip().matches("\\d+")) {
                continue;
            }
            String event = fields[2].strip();
            String kind = event.equals("raw_syscalls:sys_enter") ? ALL
                    : event.startsWith("syscalls:sys_enter_") ? event.substring("syscalls:sys_enter_".length()) : null;
            if (kind != null) {
                counts.put(kind, Long.parseLong(fields[0].strip()));
            }
        }
        return counts;
    }
}

package io.memogate.bench.passthrough;

import io.memogate.bench.process.Commands;
import io.memogate.bench.process.CommandResult;
import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The bytes a Java process's threads have allocated so far: HotSpot counts each thread's allocations exactly (not a
 * sample). In this JVM (the in-JVM proxy targets) from the thread MX bean, all threads since start; in another JVM
 * (the shipped proxy) from the diagnostic command {@code Thread.print -e}, its live threads' {@code allocated=}
 * figures, run through the attach API from this JVM (a few milliseconds; the jar exports
 * {@code jdk.attach/sun.tools.attach} for it) or, where that is not open, by a {@code jcmd} process, which on two
 * loaded cores takes seconds to start: too long for a reading taken while pgbench runs. Only ever asked of a
 * process whose command is java: attaching sends SIGQUIT, which ends a process that is not a JVM.
 */
final class AllocationCounter {

    private static final Pattern ALLOCATED = Pattern.compile("allocated=(\\d+(?:\\.\\d+)?)([KMG]?)B?\\b");
    private static final Duration JCMD_TIMEOUT = Duration.ofSeconds(30);

    private AllocationCounter() {
    }

    /** The bytes {@code pid}'s threads allocated so far; empty when it is not a JVM or cannot be asked. */
    static OptionalLong allocated(long pid) throws InterruptedException {
        Optional<Allocated> read = read(pid);
        return read.isEmpty() ? OptionalLong.empty() : OptionalLong.of(read.get().bytes());
    }

    /** The bytes allocated so far and when they were read. */
    record Allocated(long bytes, Instant at) {}

    /**
     * As {@link #allocated}, stamped with the instant it holds for: the middle of the diagnostic command through the
     * attach API (attaching comes before it), the end of a jcmd process (the dump is its last act).
     */
    static Optional<Allocated> read(long pid) throws InterruptedException {
        if (pid == ProcessHandle.current().pid()) {
            return Optional.of(new Allocated(((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean())
                    .getTotalThreadAllocatedBytes(), Instant.now()));
        }
        if (!isJava(pid)) {
            return Optional.empty();
        }
        Optional<Allocated> attached = attachedThreadDump(pid);
        if (attached.isPresent()) {
            return attached;
        }
        try {
            Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
            CommandResult dump = Commands.run(List.of(jcmd.toString(), Long.toString(pid), "Thread.print", "-e"),
                    Commands.baseEnvironment(), JCMD_TIMEOUT);
            return dump.exitCode() == 0 ? Optional.of(new Allocated(sum(dump.output()), Instant.now()))
                    : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** {@code Thread.print -e} of {@code pid} through the attach API; empty where the API is not open to this code. */
    private static Optional<Allocated> attachedThreadDump(long pid) {
        VirtualMachine vm;
        try {
            vm = VirtualMachine.attach(Long.toString(pid));
        } catch (AttachNotSupportedException | IOException e) {
            return Optional.empty();
        }
        try {
            Method executeJCmd = Class.forName("sun.tools.attach.HotSpotVirtualMachine")
                    .getMethod("executeJCmd", String.class);
            Instant sent = Instant.now();
            try (InputStream in = (InputStream) executeJCmd.invoke(vm, "Thread.print -e")) {
                // Read at offset 0 only: JDK 25's attach stream fails a read into the middle of an array
                // ("Array region 16307..16435 out of bounds for length 16384"), which readAllBytes does.
                ByteArrayOutputStream dump = new ByteArrayOutputStream();
                byte[] buffer = new byte[8192];
                for (int n = in.read(buffer, 0, buffer.length); n >= 0; n = in.read(buffer, 0, buffer.length)) {
                    dump.write(buffer, 0, n);
                }
                Instant read = Instant.now();
                return Optional.of(new Allocated(sum(dump.toString(StandardCharsets.UTF_8)),
                        sent.plus(Duration.between(sent, read).dividedBy(2))));
            }
        } catch (ReflectiveOperationException | IllegalAccessError | IOException e) {
            return Optional.empty();
        } finally {
            try {
                vm.detach();
            } catch (IOException e) {
                // Detaching closes a socket; the dump, if read, stands.
            }
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

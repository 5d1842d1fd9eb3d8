package io.memogate.bench.process;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A long-running tool (PgBouncer, HAProxy) started in the foreground as a child of this JVM, its stdout
 * and stderr in a log file. {@link #close()} stops it by its pid: SIGTERM (both tools shut down at once
 * on it), then SIGKILL if it lingers. Nothing else is ever signalled.
 */
public final class ChildProcess implements AutoCloseable {

    private static final Duration STOP_GRACE = Duration.ofSeconds(10);

    private final String name;
    private final Process process;
    private final Path log;

    private ChildProcess(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    /** Starts {@code command} with the inherited environment; output goes to {@code log}. */
    public static ChildProcess start(String name, List<String> command, Path workDirectory, Path log) throws IOException {
        Process process = new ProcessBuilder(command)
                .directory(workDirectory.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        process.getOutputStream().close();
        return new ChildProcess(name, process, log);
    }

    public long pid() {
        return process.pid();
    }

    /**
     * Returns once something accepts TCP connections on 127.0.0.1:{@code port}; fails with the end of
     * the tool's log when the tool exits first or the time runs out.
     */
    /** Like {@link #awaitPort}, but stops the process when it does not come up, so nothing is left behind. */
    public void awaitPortOrStop(int port, Duration timeout) throws IOException, InterruptedException {
        try {
            awaitPort(port, timeout);
        } catch (IOException | InterruptedException e) {
            try {
                close();
            } catch (IOException stopFailure) {
                e.addSuppressed(stopFailure);
            }
            throw e;
        }
    }

    public void awaitPort(int port, Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (!process.isAlive()) {
                throw new IOException(name + " exited with status " + process.exitValue() + " before it listened on port "
                        + port + "; its output:\n" + logTail());
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                if (System.nanoTime() > deadline) {
                    throw new IOException(name + " (pid " + pid() + ") did not listen on port " + port + " within "
                            + timeout.toSeconds() + " s; its output:\n" + logTail());
                }
                Thread.sleep(50);
            }
        }
    }

    /** CPU time (user + system, all threads) the tool has used so far, as /proc reports it. */
    public Optional<Duration> cpuTime() {
        return process.toHandle().info().totalCpuDuration();
    }

    /** The last lines the tool wrote, for error messages. */
    public String logTail() {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(cannot read " + log + ": " + e.getMessage() + ")";
        }
    }

    /**
     * Stops the tool and waits for it to exit. Interrupted while waiting, it kills the tool at once
     * instead (keeping the interrupt for the caller): leaving it running is never the better outcome.
     */
    @Override
    public void close() throws IOException {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                if (!process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                    throw new IOException(name + " (pid " + pid() + ") did not exit after SIGKILL");
                }
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}

package io.memogate.bench.pgbench;

import io.memogate.bench.process.RunningCommand;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;

/**
 * A pgbench run started with progress reports, which the caller may wait for to take readings while the clients
 * are connected and transacting; {@link #finish} waits for its end.
 */
public final class PgbenchInProgress {

    private static final Duration POLL = Duration.ofMillis(100);

    private final Duration timeout;
    private RunningCommand command;
    private int reports; // guarded by this

    PgbenchInProgress(Duration timeout) {
        this.timeout = timeout;
    }

    void started(RunningCommand command) {
        this.command = command;
    }

    void line(String line) {
        if (PgbenchProgress.isReport(line)) {
            synchronized (this) {
                reports++;
                notifyAll();
            }
        }
    }

    /**
     * Waits until pgbench has printed {@code count} progress reports; false when it ended first or {@code wait}
     * passed. The report is read as pgbench prints it, a pipe's delay later.
     */
    public synchronized boolean awaitReports(int count, Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (reports < count) {
            long left = deadline - System.nanoTime();
            if (left <= 0 || !command.isAlive() && reports < count) {
                // The reader may still hand over the last lines of a process that just ended.
                wait(POLL.toMillis());
                return reports >= count;
            }
            wait(Math.max(1, Math.min(POLL.toMillis(), left / 1_000_000)));
        }
        return true;
    }

    /**
     * Waits until {@code instant}, then for the next progress report (a reading taken just after a report is placed
     * among the reports more exactly than one within a second: the rate inside a second is not known); false when
     * pgbench ended before.
     */
    public boolean nextReportAfter(Instant instant) throws InterruptedException {
        if (!runsUntil(instant)) {
            return false;
        }
        int seen;
        synchronized (this) {
            seen = reports;
        }
        return awaitReports(seen + 1, Duration.ofSeconds(2));
    }

    /** Waits until {@code instant}; false when pgbench ended before it. */
    public boolean runsUntil(Instant instant) throws InterruptedException {
        while (command.isAlive()) {
            long left = Duration.between(Instant.now(), instant).toMillis();
            if (left <= 0) {
                return true;
            }
            Thread.sleep(Math.min(POLL.toMillis(), left));
        }
        return false;
    }

    public PgbenchRun finish() throws IOException, InterruptedException {
        var result = command.finish(timeout);
        return new PgbenchRun(result, PgbenchOutput.parse(result.exitCode(), result.output()));
    }
}

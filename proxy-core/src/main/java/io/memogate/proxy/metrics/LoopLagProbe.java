package io.memogate.proxy.metrics;

import io.micrometer.core.instrument.Timer;
import io.netty.util.concurrent.EventExecutor;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Schedules a task on one event loop every interval and records how late it ran: the time every session on that
 * loop waited, then, for anything the loop did (a long text decoded on it, a GC pause, its thread not scheduled on
 * a busy machine). Ends when the loop shuts down, which cancels the task scheduled last.
 *
 * <p>The next task is scheduled when one runs, not at a fixed rate: a stall is then recorded once, by the task due
 * during it, rather than once more by each task that piled up behind it.
 */
final class LoopLagProbe implements Runnable {

    private final EventExecutor loop;
    private final long intervalNanos;
    private final Timer lag;
    /** When the task scheduled last is due; written before it is scheduled, read when it runs. */
    private long dueNanos;

    LoopLagProbe(EventExecutor loop, Duration interval, Timer lag) {
        this.loop = loop;
        this.intervalNanos = interval.toNanos();
        this.lag = lag;
    }

    void start() {
        scheduleNext();
    }

    @Override
    public void run() {
        lag.record(Math.max(0, System.nanoTime() - dueNanos), TimeUnit.NANOSECONDS);
        scheduleNext();
    }

    private void scheduleNext() {
        if (loop.isShuttingDown()) {
            return;
        }
        // Taken before scheduling: Netty's deadline is then at or after it, and a lag is never negative.
        dueNanos = System.nanoTime() + intervalNanos;
        try {
            loop.schedule(this, intervalNanos, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException stopping) {
            // The loop began to shut down after the check: nothing more to measure.
        }
    }
}

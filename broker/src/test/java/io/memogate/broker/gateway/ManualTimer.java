package io.memogate.broker.gateway;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A timer driven by {@link #advance}: tasks whose deadline has come run on the advancing thread, in
 * deadline order, outside this timer's monitor (as a real timer runs them outside its queue lock).
 * Thread-safe, for the stress test.
 */
final class ManualTimer implements GatewayTimer {

    final class Scheduled implements Cancellable {
        final Runnable task;
        final long deadline;
        boolean cancelled;

        Scheduled(Runnable task, long deadline) {
            this.task = task;
            this.deadline = deadline;
        }

        @Override
        public void cancel() {
            synchronized (ManualTimer.this) {
                cancelled = true;
                pending.remove(this);
            }
        }
    }

    private final ManualClock clock;
    private final List<Scheduled> pending = new ArrayList<>();
    private final List<Scheduled> everScheduled = new ArrayList<>();

    ManualTimer(ManualClock clock) {
        this.clock = clock;
    }

    @Override
    public synchronized Cancellable schedule(Runnable task, long delayNanos) {
        Scheduled s = new Scheduled(task, clock.getAsLong() + delayNanos);
        pending.add(s);
        everScheduled.add(s);
        return s;
    }

    /** Moves the clock and runs what became due, including tasks those tasks schedule for now. */
    void advance(Duration by) {
        long now = clock.advance(by);
        while (true) {
            Scheduled next;
            synchronized (this) {
                next = pending.stream()
                        .filter(s -> s.deadline <= now)
                        .min(Comparator.comparingLong(s -> s.deadline))
                        .orElse(null);
                if (next == null) {
                    return;
                }
                pending.remove(next);
            }
            next.task.run();
        }
    }

    synchronized int pendingCount() {
        return pending.size();
    }

    /** Every task ever scheduled, cancelled or not: lets a test run one that lost its race to a cancel. */
    synchronized List<Scheduled> everScheduled() {
        return List.copyOf(everScheduled);
    }
}

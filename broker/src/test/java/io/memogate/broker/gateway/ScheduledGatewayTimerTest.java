package io.memogate.broker.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class ScheduledGatewayTimerTest {

    @Test
    void runsOnItsOwnDaemonThreadAndSkipsCancelledTasks() throws Exception {
        try (ScheduledGatewayTimer timer = new ScheduledGatewayTimer()) {
            AtomicBoolean cancelledRan = new AtomicBoolean();
            timer.schedule(() -> cancelledRan.set(true), TimeUnit.MILLISECONDS.toNanos(200)).cancel();
            CompletableFuture<Thread> ran = new CompletableFuture<>();

            // One thread, deadline order: by the time this runs, the cancelled task would have run.
            timer.schedule(() -> ran.complete(Thread.currentThread()), TimeUnit.MILLISECONDS.toNanos(300));

            Thread thread = ran.get(10, TimeUnit.SECONDS);
            assertThat(thread.getName()).isEqualTo("memogate-gateway-timer");
            assertThat(thread.isDaemon()).isTrue();
            assertThat(cancelledRan).isFalse();
        }
    }

    /**
     * Close cancels what was scheduled and the timer's one thread ends, so nothing scheduled before or after runs;
     * a schedule after close is ignored rather than refused with an exception.
     */
    @Test
    void afterCloseNothingRuns() throws Exception {
        ScheduledGatewayTimer timer = new ScheduledGatewayTimer();
        CompletableFuture<Thread> worker = new CompletableFuture<>();
        timer.schedule(() -> worker.complete(Thread.currentThread()), 0);
        Thread thread = worker.get(10, TimeUnit.SECONDS);
        AtomicBoolean scheduledBefore = new AtomicBoolean();
        // Not due before the test ends: only close can keep it from running, by cancelling it.
        timer.schedule(() -> scheduledBefore.set(true), TimeUnit.HOURS.toNanos(1));

        timer.close();

        thread.join(Duration.ofSeconds(10));
        assertThat(thread.isAlive()).as("the timer's thread, still waiting to run what was scheduled").isFalse();
        AtomicBoolean scheduledAfter = new AtomicBoolean();
        GatewayTimer.Cancellable ignored = timer.schedule(() -> scheduledAfter.set(true), 0);
        ignored.cancel();
        assertThat(Thread.getAllStackTraces().keySet()).as("a thread started to run what was scheduled after close")
                .noneMatch(t -> t.getName().equals(ScheduledGatewayTimer.THREAD_NAME)
                        && t.threadId() > thread.threadId());
        assertThat(scheduledBefore).as("a task scheduled before close ran").isFalse();
        assertThat(scheduledAfter).as("a task scheduled after close ran").isFalse();
    }
}

package io.memogate.broker.gateway;

import static org.assertj.core.api.Assertions.assertThat;

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

    @Test
    void afterCloseNothingIsScheduled() {
        ScheduledGatewayTimer timer = new ScheduledGatewayTimer();
        timer.close();

        GatewayTimer.Cancellable c = timer.schedule(() -> { }, 1);

        c.cancel();
    }
}

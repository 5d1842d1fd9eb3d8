package io.memogate.proxy.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.proxy.server.Transport;
import io.memogate.proxy.testing.Await;
import io.micrometer.core.instrument.MockClock;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.EventExecutor;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The lag meter shows a loop that was held, by loop, as a DBA reading {@code memogate_eventloop_lag_seconds_max}
 * during a slow spell would need it to. Lower bounds only: a busy machine can make a lag longer, never shorter.
 */
class EventLoopMetersTest {

    /**
     * A timer's max is kept over a window the registry's wall clock rotates: a clock stepped forward (a virtual
     * machine resumed, a time sync) would expire the held lag before it is read. The lag itself is measured on
     * the loop with System.nanoTime, so a still wall clock leaves what the test reads to the loop alone.
     */
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry(SimpleConfig.DEFAULT, new MockClock());
    private final EventLoopGroup loops = Transport.nio().newEventLoopGroup(2, "lag-test");

    @AfterEach
    void stop() {
        loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        registry.close();
    }

    @Test
    void aLoopHeldHalfASecondShowsThatLagOnItsOwnTimer() throws Exception {
        new EventLoopMeters(loops, Duration.ofMillis(5)).bindTo(registry);
        EventExecutor held = loops.next();
        String heldName = held.submit(() -> Thread.currentThread().getName()).get();
        Timer heldLag = lagOf(heldName);
        awaitCountAbove(heldLag, 0); // probing

        held.submit(() -> sleep(500)).get(); // the hold is what is measured: a loop kept busy half a second
        long afterHold = heldLag.count();
        awaitCountAbove(heldLag, afterHold); // the probe due during the hold has run

        // A probe was due within 5 ms of the hold's start (plus the lag of the one before, a few ms here).
        assertThat(heldLag.max(TimeUnit.MILLISECONDS)).isGreaterThanOrEqualTo(400);
        assertThat(registry.find(Names.EVENT_LOOP_LAG).timers()).hasSize(2);
        Timer otherLag = registry.find(Names.EVENT_LOOP_LAG).timers().stream().filter(t -> t != heldLag)
                .findFirst().orElseThrow();
        assertThat(otherLag.getId().getTag(Names.LOOP)).startsWith("lag-test-");
        assertThat(registry.find("netty.eventexecutor.tasks.pending").tag(Names.LOOP, heldName).gauge())
                .as("Netty's own per-loop meter, tagged the same way").isNotNull();
    }

    private Timer lagOf(String loopName) {
        return registry.get(Names.EVENT_LOOP_LAG).tag(Names.LOOP, loopName).timer();
    }

    private static void awaitCountAbove(Timer timer, long count) throws InterruptedException {
        Await.until("more than " + count + " probes recorded by " + timer.getId(), Duration.ofSeconds(10),
                () -> timer.count() > count);
    }

    private static Void sleep(long millis) throws InterruptedException {
        Thread.sleep(millis);
        return null;
    }
}

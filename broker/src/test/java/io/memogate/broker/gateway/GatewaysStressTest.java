package io.memogate.broker.gateway;

import static io.memogate.broker.gateway.Fixture.MB;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Many threads doing everything at once: acquire, withdraw, release (also of waiting tickets, and from
 * inside admission callbacks), reconfigure, target, retained, connectionClosed, pause and resume, and time
 * passing so that timeouts fire. During the run the bookkeeping is checked against itself; after it, everything must have
 * come back and every ticket must have been decided exactly once.
 */
class GatewaysStressTest {

    private static final int THREADS = 4;
    private static final Duration RUN = Duration.ofMillis(1500);
    private static final long[] ESTIMATES = {MB / 2, 20 * MB, 150 * MB, 300 * MB, 600 * MB, 1500 * MB};
    private static final int CONNECTIONS = 6;
    /** No limit the run configures is above these, so no more may ever hold a tier. */
    private static final int[] MAX_LIMITS = {4, 2, 2};

    private final ManualClock clock = new ManualClock();
    private final ManualTimer timer = new ManualTimer(clock);
    private final RecordingListener listener = new RecordingListener();
    private final LocalGateways gateways = new LocalGateways(settings(new SplittableRandom(1)), 1000 * MB, clock, timer,
            listener);

    private final ConcurrentLinkedQueue<Ticket> all = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
    private final AtomicInteger withdrawn = new AtomicInteger();
    private final AtomicInteger releasedEarly = new AtomicInteger();

    private static GatewaySettings settings(SplittableRandom random) {
        return new GatewaySettings(MB,
                new TierSettings(1 + random.nextInt(MAX_LIMITS[0]), 0.25, random.nextInt(12), Duration.ofSeconds(30)),
                new TierSettings(1 + random.nextInt(MAX_LIMITS[1]), 0.5, random.nextInt(8), Duration.ofSeconds(60)),
                new TierSettings(1 + random.nextInt(MAX_LIMITS[2]), 1.0, random.nextInt(5), Duration.ofSeconds(90)));
    }

    @Test
    void everythingComesBackAndEveryTicketIsDecidedOnce() throws InterruptedException {
        CountDownLatch start = new CountDownLatch(1);
        long end = System.nanoTime() + RUN.toNanos();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < THREADS; i++) {
            long seed = 42 + i;
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                    work(new SplittableRandom(seed), end);
                } catch (Throwable e) {
                    failures.add(e);
                }
            }, "stress-" + i);
            threads.add(thread);
            thread.start();
        }
        start.countDown();
        for (Thread thread : threads) {
            thread.join();
        }
        assertThat(failures).isEmpty();

        // Quiesce: withdraw every waiter first, so that the releases after it cannot grant anyone.
        for (Ticket t : all) {
            if (!t.admitted().isDone()) {
                assertThat(t.withdraw()).as("%s was waiting", t).isTrue();
                withdrawn.incrementAndGet();
            }
        }
        all.forEach(Ticket::release);

        gateways.checkInvariants();
        for (Tier tier : Tier.values()) {
            assertThat(gateways.state(tier).active()).as("%s active", tier).isZero();
            assertThat(gateways.state(tier).waiting()).as("%s waiting", tier).isZero();
        }
        assertThat(gateways.ledger().inFlightBytes()).isZero();
        assertThat(gateways.ledger().budgetWaiting()).isZero();
        assertThat(gateways.waiting()).isEmpty();

        int admitted = 0;
        int rejected = 0;
        int cancelled = 0;
        for (Ticket t : all) {
            assertThat(t.admitted()).as("%s decided", t).isDone();
            try {
                assertThat(t.admitted().join()).isSameAs(t);
                admitted++;
            } catch (CancellationException e) {
                cancelled++;
            } catch (CompletionException e) {
                assertThat(e.getCause()).isInstanceOf(GatewayRejectedException.class);
                rejected++;
            }
        }
        // The listener hears each decision once; a ticket decided twice would show up here.
        assertThat(listener.admissions).hasSize(admitted);
        assertThat(listener.rejections).hasSize(rejected);
        assertThat(cancelled).isBetween(withdrawn.get(), withdrawn.get() + releasedEarly.get());
        assertThat(admitted).as("the run admitted statements").isGreaterThan(100);
        assertThat(rejected + cancelled).as("the run had waiters leave").isGreaterThan(10);
    }

    private void work(SplittableRandom random, long end) {
        List<Ticket> mine = new ArrayList<>();
        while (System.nanoTime() < end) {
            int dice = random.nextInt(100);
            if (dice < 35) {
                Ticket t = gateways.acquire(ESTIMATES[random.nextInt(ESTIMATES.length)],
                        1 + random.nextInt(CONNECTIONS), Thread.currentThread().getName());
                all.add(t);
                if (random.nextInt(10) == 0) {
                    // Released by its own admission callback, on whichever thread grants it.
                    t.admitted().thenAccept(Ticket::release);
                } else {
                    mine.add(t);
                }
            } else if (dice < 60 && !mine.isEmpty()) {
                Ticket t = mine.remove(random.nextInt(mine.size()));
                if (!t.admitted().isDone()) {
                    releasedEarly.incrementAndGet();
                }
                t.release();
            } else if (dice < 68 && !mine.isEmpty()) {
                if (mine.get(random.nextInt(mine.size())).withdraw()) {
                    withdrawn.incrementAndGet();
                }
            } else if (dice < 70) {
                gateways.reconfigure(settings(random));
            } else if (dice < 72) {
                gateways.target((100 + random.nextInt(2000)) * MB);
            } else if (dice < 76) {
                gateways.retained(1 + random.nextInt(CONNECTIONS), random.nextInt(800) * MB);
            } else if (dice < 79) {
                gateways.connectionClosed(1 + random.nextInt(CONNECTIONS));
            } else if (dice < 84) {
                timer.advance(Duration.ofSeconds(random.nextInt(40)));
            } else if (dice < 86) {
                // PAUSE and RESUME from the console, as often as each other.
                if (dice == 84) {
                    gateways.pause();
                } else {
                    gateways.resume();
                }
            } else {
                gateways.checkInvariants();
                for (Tier tier : Tier.values()) {
                    assertThat(gateways.state(tier).active()).as("%s active", tier)
                            .isBetween(0, MAX_LIMITS[tier.ordinal()]);
                }
                mine.forEach(Ticket::position);
            }
        }
    }
}

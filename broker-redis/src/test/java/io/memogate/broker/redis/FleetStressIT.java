package io.memogate.broker.redis;

import static io.memogate.broker.redis.Fleet.MB;
import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.memogate.broker.gateway.GatewayRejectedException;
import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.broker.gateway.LedgerState;
import io.memogate.broker.gateway.Ticket;
import io.memogate.broker.gateway.Tier;
import io.memogate.broker.gateway.TierSettings;
import io.memogate.broker.gateway.TierState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Three instances of one fleet doing everything at once: acquire, withdraw, release (also of waiting tickets)
 * and retained, with short timeouts so that some waiters run out. Throughout, the statements
 * the instances were told are admitted, and not yet released, must fit the fleet's limits and byte budget
 * together (each instance alone would admit up to the limit: three together must not); afterwards everything
 * must have come back and every ticket must have been decided exactly once.
 */
class FleetStressIT {

    private static final int INSTANCES = 3;
    private static final int THREADS_PER_INSTANCE = 2;
    private static final Duration RUN = Duration.ofSeconds(4);
    private static final long TARGET = 3000 * MB;
    private static final long[] ESTIMATES = {MB / 2, 20 * MB, 150 * MB, 300 * MB, 600 * MB, 1500 * MB};
    private static final int CONNECTIONS = 12;
    private static final int[] LIMITS = {3, 2, 1};
    private static final GatewaySettings SETTINGS = new GatewaySettings(MB,
            new TierSettings(LIMITS[0], 0.25, 20, Duration.ofMillis(400)),
            new TierSettings(LIMITS[1], 0.5, 10, Duration.ofMillis(600)),
            new TierSettings(LIMITS[2], 1.0, 5, Duration.ofMillis(800)));

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    /** Admitted and not yet released, as the instances were told: per tier held, and estimates in flight. */
    private final AtomicInteger[] holding = {new AtomicInteger(), new AtomicInteger(), new AtomicInteger()};
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicLong inFlightBytes = new AtomicLong();
    private final ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Tracked> all = new ConcurrentLinkedQueue<>();
    private final Set<Ticket> released = ConcurrentHashMap.newKeySet();

    /** A ticket, and what completes once its decision was counted here. */
    private record Tracked(Ticket ticket, CompletableFuture<?> counted) {
    }
    private final AtomicInteger decisions = new AtomicInteger();

    @Test
    void threeInstancesTogetherNeverAdmitMoreThanTheFleetsLimits() throws Exception {
        try (Fleet fleet = new Fleet(redis)) {
            List<RedisGateways> members = new ArrayList<>();
            for (int i = 0; i < INSTANCES; i++) {
                members.add(fleet.join(SETTINGS, TARGET));
            }
            CountDownLatch start = new CountDownLatch(1);
            long end = System.nanoTime() + RUN.toNanos();
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < INSTANCES * THREADS_PER_INSTANCE; i++) {
                RedisGateways member = members.get(i % INSTANCES);
                long seed = 42 + i;
                threads.add(Thread.ofPlatform().name("fleet-stress-" + i).start(() -> {
                    try {
                        start.await();
                        work(member, new SplittableRandom(seed), end);
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }));
            }
            start.countDown();
            while (System.nanoTime() < end) {
                checkFleetView(members.getFirst());
                // As the workers think between requests, the views leave Redis time for their calls: back to back,
                // four views at a time took Redis's share of a loaded machine and an acquire ran out of time.
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
            }
            for (Thread thread : threads) {
                thread.join();
            }
            assertThat(failures).isEmpty();
            assertThat(violations).isEmpty();

            // Quiesce: withdraw every waiter, release everything admitted, then close every connection.
            for (Tracked t : all) {
                if (t.ticket().withdraw()) {
                    decisions.incrementAndGet();
                }
            }
            for (Tracked t : all) {
                t.counted().handle((ok, failure) -> ok).join();
                releaseIfAdmitted(t.ticket());
            }
            RedisGateways any = members.getFirst();
            Eventually.until("every permit and byte is back", () -> {
                LedgerState ledger = any.ledger();
                return ledger.inFlightBytes() == 0 && ledger.budgetWaiting() == 0
                        && any.state(Tier.SMALL).active() == 0 && any.state(Tier.MEDIUM).active() == 0
                        && any.state(Tier.LARGE).active() == 0 && any.waiting().isEmpty();
            }, () -> List.of(any.ledger(), any.state(Tier.SMALL), any.state(Tier.MEDIUM), any.state(Tier.LARGE),
                    any.waiting(), "tickets Redis still has: " + ticketsInRedis(), "instances: "
                            + members.stream().map(RedisGateways::instance).toList()));
            // Closed through every instance, so that each close comes after that instance's last measurement.
            for (RedisGateways member : members) {
                for (int c = 0; c < CONNECTIONS; c++) {
                    member.connectionClosed(c);
                }
            }
            Eventually.until("the ledger is empty", () -> any.ledger().connections() == 0
                    && any.ledger().totalBytes() == 0, any::ledger);
            assertThat(decisions.get()).as("tickets decided, each once").isEqualTo(all.size());
            assertThat(all).allSatisfy(t -> assertThat(t.ticket().admitted()).isDone());
        }
    }

    private void work(RedisGateways gateways, SplittableRandom random, long end) {
        List<Tracked> mine = new ArrayList<>();
        while (System.nanoTime() < end) {
            // Think time between a client's requests: a proxy sends a statement's acquire when a client asks,
            // and a loop without it would queue more calls than Redis answers within the command timeout.
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(500 + random.nextInt(3000)));
            int action = random.nextInt(100);
            if (action < 55 || mine.isEmpty()) {
                Ticket t = gateways.acquire(ESTIMATES[random.nextInt(ESTIMATES.length)], random.nextInt(CONNECTIONS));
                Tracked tracked = new Tracked(t, t.admitted().whenComplete(this::decided));
                all.add(tracked);
                mine.add(tracked);
            } else if (action < 90) {
                Tracked t = mine.remove(random.nextInt(mine.size()));
                if (t.counted().isDone()) {
                    releaseIfAdmitted(t.ticket());
                } else if (t.ticket().withdraw()) {
                    decisions.incrementAndGet();
                } else {
                    mine.add(t); // granted or refused meanwhile: its future says which, next time
                }
            } else {
                // At most 1 MB measured: every gated statement still costs the budget most of its estimate.
                gateways.retained(random.nextInt(CONNECTIONS), random.nextLong(MB));
            }
        }
    }

    /** Counted before Redis could count it (the grant happened first), so never above Redis's own figures. */
    private void decided(Ticket granted, Throwable failure) {
        if (failure != null) {
            Throwable cause = failure instanceof CompletionException c ? c.getCause() : failure;
            if (cause instanceof GatewayRejectedException) {
                decisions.incrementAndGet();
            } else if (!(cause instanceof CancellationException)) {
                failures.add(cause);
            }
            return;
        }
        decisions.incrementAndGet();
        if (!granted.gated()) {
            return; // below t0: holds nothing
        }
        int highest = granted.highestTier().orElseThrow().ordinal();
        for (int i = 0; i <= highest; i++) {
            int n = holding[i].incrementAndGet();
            if (n > LIMITS[i]) {
                violations.add(n + " statements admitted holding " + Tier.values()[i] + " at once, limit " + LIMITS[i]);
            }
        }
        int statements = inFlight.incrementAndGet();
        long bytes = inFlightBytes.addAndGet(granted.estimateBytes());
        // Two or more in flight only when they fit the target together (one alone may exceed it); what
        // connections were measured to retain lowers a statement's cost by up to 1 MB each.
        if (statements > 1 && bytes > TARGET + CONNECTIONS * MB) {
            violations.add(statements + " statements in flight with " + bytes / MB + " MB, target " + TARGET / MB + " MB");
        }
    }

    /** Uncounted before Redis hears of it, for the same reason. */
    private void releaseIfAdmitted(Ticket t) {
        if (!t.gated() || !t.admitted().isDone() || t.admitted().isCompletedExceptionally() || !released.add(t)) {
            return;
        }
        int highest = t.highestTier().orElseThrow().ordinal();
        for (int i = 0; i <= highest; i++) {
            holding[i].decrementAndGet();
        }
        inFlight.decrementAndGet();
        inFlightBytes.addAndGet(-t.estimateBytes());
        t.release();
    }

    /** Every ticket Redis still keeps, with its fields: which instance holds it, in what state, since when. */
    private static Object ticketsInRedis() {
        RedisClient client = RedisClient.create(redis.uri());
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            RedisCommands<String, String> commands = connection.sync();
            Map<String, Map<String, String>> tickets = new TreeMap<>();
            for (String key : commands.keys("memogate:*:t:*")) {
                tickets.put(key, commands.hgetall(key));
            }
            return tickets;
        } catch (RuntimeException e) {
            return "unreadable: " + e; // the failure being reported matters more than this detail
        } finally {
            client.shutdown();
        }
    }

    /** Redis's own figures, read in one moment: no tier above its limit, no negative count. */
    private void checkFleetView(RedisGateways gateways) {
        for (Tier tier : Tier.values()) {
            TierState state = gateways.state(tier);
            if (state.active() > state.limit() || state.active() < 0 || state.waiting() < 0) {
                violations.add("the fleet's " + tier + ": " + state);
            }
        }
        LedgerState ledger = gateways.ledger();
        if (ledger.inFlightBytes() < 0 || ledger.totalBytes() < 0) {
            violations.add("the fleet's ledger: " + ledger);
        }
    }
}

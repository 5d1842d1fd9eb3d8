package io.memogate.broker.redis;

import static io.memogate.broker.redis.Fleet.MB;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.broker.gateway.GatewayListener;
import io.memogate.broker.gateway.GatewayRejectedException;
import io.memogate.broker.gateway.Ticket;
import io.memogate.broker.gateway.Tier;
import io.memogate.broker.gateway.TierSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The gateways contract held by two or three proxies sharing one fleet in a real Redis: the limits, FIFO and
 * the byte budget are the fleet's, one decision per ticket, and a proxy that vanishes gives its permits back.
 */
class FleetGatewaysIT {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();
    private Fleet fleet;

    @BeforeEach
    void newFleet() {
        fleet = new Fleet(redis);
    }

    @AfterEach
    void closeFleet() {
        fleet.close();
    }

    @Test
    void aTierLimitHoldsForTheFleetNotForEachInstance() throws Exception {
        RedisGateways a = fleet.join(Fleet.settings(2, 1, 1), 1000 * MB);
        RedisGateways b = fleet.join(Fleet.settings(2, 1, 1), 1000 * MB);

        Ticket first = admitted(a.acquire(5 * MB, 1));
        Ticket second = admitted(a.acquire(5 * MB, 2));
        Ticket third = b.acquire(5 * MB, 3);
        Eventually.until("B's statement waits for SMALL", () -> b.state(Tier.SMALL).waiting() == 1);
        assertThat(third.admitted()).isNotDone();
        assertThat(b.state(Tier.SMALL).active()).isEqualTo(2);

        first.release();
        admitted(third);
        assertThat(a.state(Tier.SMALL).active()).isEqualTo(2);
        second.release();
        third.release();
        Eventually.until("every permit is back", () -> a.state(Tier.SMALL).active() == 0);
    }

    @Test
    void aFloorTakesItsTiersFleetWideWhateverTheEstimate() throws Exception {
        RedisGateways a = fleet.join(Fleet.settings(2, 1, 1), 1000 * MB);
        RedisGateways b = fleet.join(Fleet.settings(2, 1, 1), 1000 * MB);

        // A few kilobytes, below t0: ungated without a floor, through MEDIUM with one.
        assertThat(a.acquire(4096, 1, null).gated()).isFalse();
        Ticket first = admitted(a.acquire(4096, Tier.MEDIUM, 1, null));
        assertThat(first.highestTier()).contains(Tier.MEDIUM);
        Ticket second = b.acquire(4096, Tier.MEDIUM, 2, null);
        Eventually.until("B's search waits for MEDIUM", () -> b.state(Tier.MEDIUM).waiting() == 1);
        assertThat(second.admitted()).isNotDone();
        assertThat(a.state(Tier.SMALL).active()).as("SMALL held while waiting for MEDIUM").isEqualTo(2);

        first.release();
        admitted(second);
        assertThat(second.highestTier()).contains(Tier.MEDIUM);
        second.release();
        Eventually.until("every permit is back", () -> a.state(Tier.SMALL).active() == 0
                && a.state(Tier.MEDIUM).active() == 0);
    }

    @Test
    void waitersAreGrantedInArrivalOrderAcrossInstances() throws Exception {
        RedisGateways a = fleet.join(Fleet.settings(1, 1, 1), 1000 * MB);
        RedisGateways b = fleet.join(Fleet.settings(1, 1, 1), 1000 * MB);
        Ticket holder = admitted(a.acquire(5 * MB, 1));
        Ticket w1 = b.acquire(5 * MB, 2);
        Eventually.until("w1 queued", () -> a.state(Tier.SMALL).waiting() == 1);
        Ticket w2 = a.acquire(5 * MB, 3);
        Eventually.until("w2 queued", () -> a.state(Tier.SMALL).waiting() == 2);
        Ticket w3 = b.acquire(5 * MB, 4);
        Eventually.until("w3 queued", () -> a.state(Tier.SMALL).waiting() == 3);
        assertThat(a.waiting()).extracting(w -> w.connection()).containsExactly(2L, 3L, 4L);

        holder.release();
        admitted(w1);
        assertThat(w2.admitted()).isNotDone();
        assertThat(w3.admitted()).isNotDone();
        w1.release();
        admitted(w2);
        assertThat(w3.admitted()).isNotDone();
        w2.release();
        admitted(w3).release();
    }

    @Test
    void theByteBudgetCountsEveryInstancesStatements() throws Exception {
        RedisGateways a = fleet.join(Fleet.settings(4, 4, 4), 100 * MB);
        RedisGateways b = fleet.join(Fleet.settings(4, 4, 4), 100 * MB);
        Ticket big = admitted(a.acquire(60 * MB, 1));
        Ticket other = b.acquire(60 * MB, 2);
        Eventually.until("B's statement waits for the budget", () -> b.ledger().budgetWaiting() == 1);
        assertThat(b.ledger().inFlightBytes()).isEqualTo(60 * MB);

        big.release();
        admitted(other);
        assertThat(a.ledger().inFlightBytes()).isEqualTo(60 * MB);
        other.release();
        Eventually.until("nothing in flight", () -> a.ledger().inFlightBytes() == 0);
    }

    @Test
    void aWithdrawalRacingAGrantHasOneWinner() throws Exception {
        RedisGateways a = fleet.join(Fleet.settings(1, 1, 1), 1000 * MB);
        RedisGateways b = fleet.join(Fleet.settings(1, 1, 1), 1000 * MB);
        int withdrawn = 0;
        int granted = 0;
        for (int i = 0; i < 40; i++) {
            Ticket holder = admitted(a.acquire(5 * MB, 1));
            Ticket waiter = b.acquire(5 * MB, 2);
            Eventually.until("the waiter queued", () -> b.state(Tier.SMALL).waiting() == 1);
            CountDownLatch go = new CountDownLatch(1);
            Thread releaser = Thread.ofPlatform().start(() -> {
                await(go);
                holder.release();
            });
            go.countDown();
            boolean won = waiter.withdraw();
            releaser.join();
            if (won) {
                withdrawn++;
                assertThatThrownBy(() -> waiter.admitted().join()).isInstanceOf(CancellationException.class);
            } else {
                granted++;
                admitted(waiter).release();
            }
            Eventually.until("every permit is back", () -> a.state(Tier.SMALL).active() == 0
                    && a.state(Tier.SMALL).waiting() == 0 && a.ledger().inFlightBytes() == 0);
        }
        assertThat(withdrawn + granted).isEqualTo(40);
    }

    @Test
    void aWaiterTimesOutOnceAndLeavesNothingBehind() throws Exception {
        CountingListener listener = new CountingListener();
        var settings = Fleet.settings(1, 1, 1)
                .with(Tier.SMALL, new TierSettings(1, 1.0, 10, Duration.ofMillis(300)));
        RedisGateways a = fleet.join(settings, 1000 * MB);
        RedisGateways b = fleet.join(settings, 1000 * MB, listener);
        Ticket holder = admitted(a.acquire(5 * MB, 1));
        Ticket waiter = b.acquire(5 * MB, 2);

        assertThatThrownBy(() -> waiter.admitted().join()).isInstanceOf(CompletionException.class)
                .cause().isInstanceOfSatisfying(GatewayRejectedException.class,
                        r -> assertThat(r.reason()).isEqualTo(GatewayRejectedException.Reason.TIMEOUT));
        assertThat(waiter.withdraw()).isFalse();
        waiter.release();
        holder.release();
        Eventually.until("the permit is back", () -> a.state(Tier.SMALL).active() == 0);
        assertThat(a.state(Tier.SMALL).timeoutsTotal()).isEqualTo(1);
        assertThat(a.state(Tier.SMALL).waiting()).isZero();
        assertThat(listener.rejected.get()).isEqualTo(1);
    }

    @Test
    void anInstanceThatStopsRenewingItsLeaseGivesItsPermitsBack() throws Exception {
        fleet.lease(Duration.ofSeconds(1));
        RedisGateways killed = fleet.join(Fleet.settings(2, 1, 1), 1000 * MB);
        RedisGateways survivor = fleet.join(Fleet.settings(2, 1, 1), 1000 * MB);
        admitted(killed.acquire(5 * MB, 1));
        admitted(killed.acquire(5 * MB, 2));
        Ticket waiter = survivor.acquire(5 * MB, 3);
        Eventually.until("the survivor's statement waits", () -> survivor.state(Tier.SMALL).waiting() == 1);

        killed.abandon(); // as after a SIGKILL: no release, no goodbye, no more renewals

        admitted(waiter);
        assertThat(survivor.state(Tier.SMALL).active()).isEqualTo(1);
        assertThat(survivor.ledger().inFlightBytes()).isEqualTo(5 * MB);
        waiter.release();
    }

    @Test
    void withRedisAwayEachInstanceAdmitsItsShareAndThenComesBackToTheFleet() throws Exception {
        fleet.lease(Duration.ofSeconds(1));
        RedisGateways a = fleet.join(Fleet.settings(4, 1, 1), 1000 * MB);
        RedisGateways b = fleet.join(Fleet.settings(4, 1, 1), 1000 * MB);
        Eventually.until("both instances counted", () -> a.fleetSize() == 2);
        List<Ticket> holders = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            holders.add(admitted(a.acquire(5 * MB, i)));
        }
        Ticket waiter = b.acquire(5 * MB, 9);
        Eventually.until("the statement waits", () -> b.state(Tier.SMALL).waiting() == 1);

        redis.stop();
        assertThatThrownBy(() -> waiter.admitted().join()).cause().isInstanceOf(FleetUnavailableException.class);
        Eventually.until("the instance admits by its own share", a::local);
        assertThat(a.state(Tier.SMALL).limit()).as("half the fleet's limit: two instances").isEqualTo(2);
        Ticket first = admitted(a.acquire(5 * MB, 20));
        admitted(a.acquire(5 * MB, 21)).release();
        Ticket second = admitted(a.acquire(5 * MB, 22));
        Ticket third = a.acquire(5 * MB, 23);
        assertThat(third.admitted()).as("beyond the share").isNotDone();
        first.release();
        admitted(third).release();
        holders.forEach(Ticket::release); // Redis is away: sent again once it answers, if it still knows them

        redis.restart();
        Eventually.until("the instances are back in the fleet", () -> !a.local() && !b.local());
        assertThat(a.state(Tier.SMALL).limit()).isEqualTo(4);
        Ticket after = admitted(b.acquire(5 * MB, 30));
        // The share's statement still runs: A asserts it in the restarted Redis, beside what Redis granted.
        Eventually.until("the restarted Redis counts B's grant and A's share's statement",
                () -> a.state(Tier.SMALL).active() == 2, () -> a.state(Tier.SMALL));
        after.release();
        second.release(); // admitted by the share: released there, and in Redis
        Eventually.until("every permit is back", () -> a.state(Tier.SMALL).active() == 0);
    }

    private static Ticket admitted(Ticket t) {
        return t.admitted().orTimeout(Eventually.DEFAULT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS).join();
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static final class CountingListener implements GatewayListener {
        final AtomicInteger rejected = new AtomicInteger();

        @Override
        public void rejected(Tier tier, GatewayRejectedException.Reason reason, long waitedNanos, long estimateBytes) {
            rejected.incrementAndGet();
        }
    }
}

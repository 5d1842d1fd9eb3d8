package io.memogate.broker.redis;

import static io.memogate.broker.redis.Fleet.MB;
import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.broker.gateway.Ticket;
import io.memogate.broker.gateway.Tier;
import io.memogate.broker.gateway.TierSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A fleet whose Redis a Sentinel watches: the primary is killed while statements hold permits and others
 * wait, the Sentinel promotes the replica, and the fleet goes on there. Nothing is admitted twice, nothing
 * held or waiting is lost, and no waiter waits past its timeout.
 */
class FleetSentinelIT {

    @RegisterExtension
    static final SentinelGroup redis = new SentinelGroup();
    /** Longer than the lease: the waiters must outlast a failover that takes up to a lease. */
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    /** Longer than a failover takes on a loaded machine; waiters are refused only after one. */
    private static final Duration LEASE = Duration.ofSeconds(30);

    @Test
    void aReplicaPromotedWhileStatementsWaitGoesOnWithTheSameHoldersAndWaiters() throws Exception {
        GatewaySettings settings = Fleet.settings(2, 1, 1)
                .with(Tier.SMALL, new TierSettings(2, 1.0, 100, TIMEOUT));
        try (Fleet fleet = new Fleet(redis).lease(LEASE)) {
            RedisGateways a = fleet.join(settings, 1000 * MB);
            RedisGateways b = fleet.join(settings, 1000 * MB);
            List<Ticket> holders = List.of(Fleet.admitted(a.acquire(5 * MB, 1)), Fleet.admitted(a.acquire(5 * MB, 2)));
            List<Ticket> waiters = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                waiters.add(b.acquire(5 * MB, 10 + i));
            }
            Eventually.until("three statements wait", () -> Fleet.waiting(b) == 3);
            redis.replicated();

            redis.killPrimary();
            Eventually.until("the Sentinel promotes the replica", redis::promoted);
            Eventually.until("both instances use the new primary", () -> Fleet.active(a) == 2 && Fleet.active(b) == 2,
                    () -> List.of(a.local(), b.local()));

            assertThat(Fleet.waiting(b)).as("the waiters are still queued on the new primary").isEqualTo(3);
            assertThat(waiters).allSatisfy(w -> assertThat(w.admitted()).isNotDone());
            holders.getFirst().release();
            Ticket first = admittedBeforeTimeout(waiters.get(0));
            assertThat(Fleet.active(a)).as("one holder left and the first waiter, never more").isEqualTo(2);
            assertThat(waiters.get(1).admitted()).isNotDone();
            holders.getLast().release();
            admittedBeforeTimeout(waiters.get(1));
            first.release();
            admittedBeforeTimeout(waiters.get(2));
            waiters.get(1).release();
            waiters.get(2).release();
            Eventually.until("every permit and byte back", () -> Fleet.active(a) == 0 && a.ledger().inFlightBytes() == 0,
                    () -> List.of(a.state(Tier.SMALL), a.ledger()));
            assertThat(a.state(Tier.SMALL).admittedTotal()).as("two holders and three waiters, each admitted once")
                    .isEqualTo(5);
        }
    }

    /** Admitted, or refused, before its timeout in the SMALL queue could have run out: never left waiting. */
    private static Ticket admittedBeforeTimeout(Ticket t) {
        CompletableFuture<Ticket> admission = t.admitted();
        return admission.orTimeout(TIMEOUT.toSeconds(), TimeUnit.SECONDS).join();
    }
}

package io.memogate.broker.redis;

import static io.memogate.broker.redis.Fleet.MB;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.broker.gateway.Ticket;
import io.memogate.broker.gateway.Tier;
import io.memogate.broker.gateway.TierSettings;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A failover that loses writes: the replica stops replicating, the fleet goes on writing to the primary (a
 * grant and two waiting statements the replica never sees), the primary is killed and the Sentinel promotes
 * the replica. The grant it missed is counted again from the instance that holds it, so the limit holds over
 * it; the waiters it does not know are refused, not left waiting; nothing is admitted twice.
 */
class FleetLostWritesIT {

    @RegisterExtension
    static final SentinelGroup redis = new SentinelGroup();
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @Test
    void aGrantTheReplicaMissedIsCountedAgainAndWaitersItDoesNotKnowAreRefused() throws Exception {
        GatewaySettings settings = Fleet.settings(2, 1, 1)
                .with(Tier.SMALL, new TierSettings(2, 1.0, 100, TIMEOUT));
        try (Fleet fleet = new Fleet(redis)) {
            RedisGateways a = fleet.join(settings, 1000 * MB);
            RedisGateways b = fleet.join(settings, 1000 * MB);
            Ticket seen = Fleet.admitted(a.acquire(5 * MB, 1));
            redis.replicated();

            redis.detachReplica();
            Ticket missed = Fleet.admitted(a.acquire(5 * MB, 2));
            List<Ticket> waiters = List.of(b.acquire(5 * MB, 10), b.acquire(5 * MB, 11));
            Eventually.until("two statements wait on the primary", () -> Fleet.waiting(b) == 2);
            assertThat(redis.replicaWaiting()).as("the replica missed the waiting statements").isZero();

            redis.killPrimary();
            Eventually.until("the Sentinel promotes the replica", redis::promoted);

            for (Ticket waiter : waiters) {
                assertThatThrownBy(() -> waiter.admitted().orTimeout(TIMEOUT.toSeconds(), TimeUnit.SECONDS).join())
                        .as("refused before its timeout, not left waiting")
                        .isInstanceOf(CompletionException.class)
                        .cause().isInstanceOf(FleetUnavailableException.class);
            }
            Eventually.until("the new primary counts both of A's statements", () -> Fleet.active(b) == 2,
                    () -> List.of(a.local(), b.local()));
            assertThat(b.ledger().inFlightBytes()).isEqualTo(10 * MB);

            Ticket next = b.acquire(5 * MB, 12);
            Eventually.until("a new statement waits: the limit holds over the grant the replica missed",
                    () -> Fleet.waiting(b) == 1);
            assertThat(next.admitted()).isNotDone();
            missed.release();
            Fleet.admitted(next);
            assertThat(Fleet.active(b)).as("never more than the limit").isEqualTo(2);
            seen.release();
            next.release();
            Eventually.until("every permit and byte back", () -> Fleet.active(a) == 0 && a.ledger().inFlightBytes() == 0,
                    () -> List.of(a.state(Tier.SMALL), a.ledger()));
            assertThat(a.state(Tier.SMALL).admittedTotal())
                    .as("the replica's grant and the new one; the missed grant counted again, not admitted again")
                    .isEqualTo(2);
        }
    }
}

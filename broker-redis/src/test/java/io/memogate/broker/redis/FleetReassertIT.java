package io.memogate.broker.redis;

import static io.memogate.broker.redis.Fleet.MB;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.memogate.broker.gateway.Ticket;
import io.memogate.broker.gateway.Tier;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What instances hold is counted again by a Redis that lost it: restarted empty (no persistence) while
 * statements run, or away while an instance's share admitted statements. The limits then hold over what runs,
 * and nothing is admitted twice.
 */
class FleetReassertIT {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();
    private Fleet fleet;

    @BeforeEach
    void newFleet() {
        fleet = new Fleet(redis).lease(Duration.ofSeconds(2));
    }

    @AfterEach
    void closeFleet() {
        fleet.close();
    }

    @Test
    void statementsHeldWhenRedisRestartsEmptyAreCountedAgainAndTheLimitHolds() throws Exception {
        RedisGateways a = fleet.join(Fleet.settings(2, 1, 1), 1000 * MB);
        RedisGateways b = fleet.join(Fleet.settings(2, 1, 1), 1000 * MB);
        Ticket first = Fleet.admitted(a.acquire(5 * MB, 1));
        Ticket second = Fleet.admitted(a.acquire(5 * MB, 2));

        redis.stop();
        redis.restart();

        Eventually.until("the restarted Redis counts A's two statements", () -> Fleet.active(b) == 2,
                () -> b.state(Tier.SMALL));
        assertThat(b.ledger().inFlightBytes()).isEqualTo(10 * MB);
        assertThat(b.state(Tier.SMALL).admittedTotal()).as("counted again, not admitted again").isZero();
        Eventually.until("A's share no longer in force", () -> !a.local());
        Ticket waiter = b.acquire(5 * MB, 3);
        Eventually.until("B's statement waits behind A's", () -> Fleet.waiting(b) == 1);
        assertThat(waiter.admitted()).isNotDone();

        first.release();
        Fleet.admitted(waiter);
        assertThat(b.state(Tier.SMALL).active()).isEqualTo(2);
        assertThat(b.state(Tier.SMALL).admittedTotal()).isEqualTo(1);
        second.release();
        waiter.release();
        Eventually.until("every permit and byte back", () -> Fleet.active(a) == 0 && a.ledger().inFlightBytes() == 0);
    }

    @Test
    void statementsTheShareAdmittedAreCountedWhenRedisReturnsAndReleasedThere() throws Exception {
        RedisGateways a = fleet.join(Fleet.settings(1, 1, 1), 1000 * MB);
        redis.stop();
        Eventually.until("A admits by its share", a::local);
        Ticket shared = Fleet.admitted(a.acquire(5 * MB, 1));

        redis.restart();

        Eventually.until("the fleet counts the share's statement", () -> Fleet.active(a) == 1, () -> a.state(Tier.SMALL));
        RedisGateways b = fleet.join(Fleet.settings(1, 1, 1), 1000 * MB);
        Ticket waiter = b.acquire(5 * MB, 2);
        Eventually.until("B's statement waits for the only SMALL permit", () -> Fleet.waiting(b) == 1);

        shared.release();
        Fleet.admitted(waiter).release();
        Eventually.until("every permit back", () -> Fleet.active(a) == 0 && a.ledger().inFlightBytes() == 0);
    }

    @Test
    void assertingAgainAndAgainCountsEachStatementOnce() throws Exception {
        RedisGateways a = fleet.join(Fleet.settings(4, 1, 1), 1000 * MB);
        Ticket held = Fleet.admitted(a.acquire(5 * MB, 1));
        // Every third of the lease the instance asserts what it holds; Redis has it already each time.
        for (int i = 0; i < 3; i++) {
            long before = a.assertions();
            Eventually.until("one more assertion", () -> a.assertions() > before);
            assertThat(a.state(Tier.SMALL).active()).isEqualTo(1);
            assertThat(a.ledger().inFlightBytes()).isEqualTo(5 * MB);
        }
        assertThat(a.state(Tier.SMALL).admittedTotal()).isEqualTo(1);
        held.release();
        Eventually.until("the permit back", () -> Fleet.active(a) == 0);
    }

    @Test
    void aWaitingStatementRedisNoLongerKnowsIsRefusedRatherThanLeftWaiting() throws Exception {
        RedisGateways a = fleet.join(Fleet.settings(1, 1, 1), 1000 * MB);
        Ticket holder = Fleet.admitted(a.acquire(5 * MB, 1));
        Ticket waiter = a.acquire(5 * MB, 2);
        Eventually.until("the statement waits", () -> Fleet.waiting(a) == 1);

        forgetWaitingTickets(); // as a failover to a replica that missed them: the rest of the state is there

        assertThatThrownBy(() -> waiter.admitted().join()).cause().isInstanceOf(FleetUnavailableException.class)
                .hasMessageContaining("no longer knows this waiting statement");
        assertThat(a.state(Tier.SMALL).active()).isEqualTo(1);
        holder.release();
        Eventually.until("the permit back", () -> Fleet.active(a) == 0);
    }

    /** Deletes every waiting ticket of every fleet in the test's Redis, and nothing else. */
    private static void forgetWaitingTickets() {
        RedisClient client = RedisClient.create(redis.uri());
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            RedisCommands<String, String> commands = connection.sync();
            for (String queue : commands.keys("memogate:*:q:1")) {
                String prefix = queue.substring(0, queue.length() - "q:1".length());
                for (String id : commands.zrange(queue, 0, -1)) {
                    commands.del(prefix + "t:" + id);
                    commands.zrem(queue, id);
                    commands.zrem(prefix + "dl", id);
                }
            }
        } finally {
            client.shutdown();
        }
    }
}

package io.memogate.broker.gateway;

import static io.memogate.broker.gateway.Fixture.MB;
import static io.memogate.broker.gateway.Fixture.assertAdmitted;
import static io.memogate.broker.gateway.Fixture.assertWaiting;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * PAUSE and RESUME from the admin console: paused gateways admit nothing new, admitted work finishes,
 * and resume lets the waiters through in the order they came. Target 8192 MB: t1 = 256 MB / S_small.
 */
class PauseTest {

    @Test
    void pausedGatewaysQueueNewGatedStatementsThoughPermitsAreFree() {
        Fixture f = Fixture.forTiers(4, 4, 1);
        f.gateways.pause();

        Ticket gated = f.acquire(10 * MB, 1);
        Ticket small = f.acquire(MB / 2, 2); // below t0

        assertWaiting(gated);
        assertThat(gated.position().orElseThrow().tier()).isEqualTo(Tier.SMALL);
        assertThat(gated.position().orElseThrow().paused()).as("the pause holds it, so clients can be told").isTrue();
        assertThat(f.state(Tier.SMALL).active()).isZero();
        assertThat(small.gated()).as("below t0: no gateway, so no pause").isFalse();
        assertAdmitted(small);
        assertThat(f.gateways.paused()).isTrue();
    }

    @Test
    void admittedStatementsKeepTheirPermitsAndTheirReleaseGrantsNobody() {
        Fixture f = Fixture.forTiers(1, 4, 1);
        Ticket running = f.acquire(10 * MB, 1);
        Ticket queued = f.acquire(10 * MB, 2);
        f.gateways.pause();

        assertAdmitted(running);
        f.release(running);

        assertWaiting(queued);
        assertThat(f.state(Tier.SMALL).active()).isZero();
        assertThat(f.gateways.ledger().inFlightBytes()).isZero();
    }

    @Test
    void resumeLetsWaitersThroughInArrivalOrderUpToTheLimits() {
        Fixture f = Fixture.forTiers(2, 4, 1);
        Ticket before = f.acquire(10 * MB, 1);
        Ticket waitingBefore = f.acquire(10 * MB, 2);
        Ticket third = f.acquire(10 * MB, 3); // SMALL now full: waits
        f.gateways.pause();
        Ticket fourth = f.acquire(10 * MB, 4);
        Ticket fifth = f.acquire(10 * MB, 5);
        List<Long> order = new CopyOnWriteArrayList<>();
        for (Ticket t : List.of(third, fourth, fifth)) {
            t.admitted().thenRun(() -> order.add(t.connection()));
        }
        f.release(before);
        f.release(waitingBefore);
        assertThat(order).as("nothing while paused").isEmpty();

        f.gateways.resume();
        f.gateways.checkInvariants();

        assertThat(order).containsExactly(3L, 4L);
        assertWaiting(fifth);
        assertThat(fifth.position().orElseThrow().position()).isEqualTo(1);
        f.release(third);
        assertThat(order).containsExactly(3L, 4L, 5L);
        assertThat(f.gateways.paused()).isFalse();
    }

    @Test
    void aRaisedLimitOrTargetWhilePausedGrantsNothingUntilResume() {
        Fixture f = Fixture.forTiers(1, 1, 1);
        f.gateways.pause();
        Ticket a = f.acquire(10 * MB, 1);
        Ticket b = f.acquire(10 * MB, 2);

        f.gateways.reconfigure(Fixture.tiers(8, 1, 1));
        f.gateways.target(2 * Fixture.TIERS_TARGET);
        f.gateways.checkInvariants();
        assertWaiting(a);
        assertWaiting(b);

        f.gateways.resume();
        assertAdmitted(a);
        assertAdmitted(b);
    }

    @Test
    void waitersStillTimeOutAndCanBeWithdrawnWhilePaused() {
        Fixture f = Fixture.forTiers(4, 4, 1);
        f.gateways.pause();
        Ticket withdrawn = f.acquire(10 * MB, 1);
        Ticket timedOut = f.acquire(10 * MB, 2);

        assertThat(withdrawn.withdraw()).isTrue();
        f.advance(Duration.ofSeconds(31)); // SMALL's timeout is 30 s

        GatewayRejectedException rejection = Fixture.rejection(timedOut);
        assertThat(rejection.reason()).isEqualTo(GatewayRejectedException.Reason.TIMEOUT);
        assertThat(rejection.tier()).isEqualTo(Tier.SMALL);
        assertThat(rejection.paused()).as("refused because of the pause, not the load").isTrue();
        assertThat(f.gateways.waiting()).isEmpty();
    }

    @Test
    void aFullQueueStillRefusesAtOnceWhilePaused() {
        Fixture f = new Fixture(Fixture.tiers(4, 4, 1).with(Tier.SMALL,
                Fixture.tiers(4, 4, 1).small().withMaxQueue(1)), Fixture.TIERS_TARGET);
        f.gateways.pause();
        f.acquire(10 * MB, 1);

        Ticket refused = f.acquire(10 * MB, 2);

        assertThat(Fixture.rejection(refused).reason()).isEqualTo(GatewayRejectedException.Reason.QUEUE_FULL);
        assertThat(Fixture.rejection(refused).paused()).isTrue();
    }

    @Test
    void waitersAndRefusalsOfARunningGatewayAreNotBlamedOnAPause() {
        Fixture f = Fixture.forTiers(1, 4, 1);
        f.acquire(10 * MB, 1);
        Ticket queued = f.acquire(10 * MB, 2);

        assertThat(queued.position().orElseThrow().paused()).isFalse();
        f.advance(Duration.ofSeconds(31));
        assertThat(Fixture.rejection(queued).paused()).isFalse();
    }

    @Test
    void pauseAndResumeAreIdempotent() {
        Fixture f = Fixture.forTiers(1, 1, 1);
        assertThat(f.gateways.resume()).as("not paused: nothing changed").isFalse();
        assertThat(f.gateways.pause()).isTrue();
        assertThat(f.gateways.pause()).as("already paused").isFalse();
        Ticket a = f.acquire(10 * MB, 1);
        assertThat(f.gateways.resume()).isTrue();
        assertThat(f.gateways.resume()).isFalse();

        assertAdmitted(a);
        assertThat(f.gateways.paused()).isFalse();
    }
}

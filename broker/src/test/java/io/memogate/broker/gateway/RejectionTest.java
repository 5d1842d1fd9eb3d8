package io.memogate.broker.gateway;

import static io.memogate.broker.gateway.Fixture.MB;
import static io.memogate.broker.gateway.Fixture.assertAdmitted;
import static io.memogate.broker.gateway.Fixture.assertWaiting;
import static io.memogate.broker.gateway.Fixture.rejection;
import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.broker.gateway.GatewayRejectedException.Reason;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Full queues and timeouts, and what a rejected statement gives back. Target 8192 MB: t1 = 256 MB / S. */
class RejectionTest {

    @Test
    void fullQueueRejectsAtOnce() {
        GatewaySettings settings = Fixture.tiers(1, 4, 1);
        Fixture f = new Fixture(settings.with(Tier.SMALL, settings.small().withMaxQueue(2)), Fixture.TIERS_TARGET);
        f.acquire(10 * MB, 1);
        Ticket second = f.acquire(10 * MB, 2);
        Ticket third = f.acquire(10 * MB, 3);

        Ticket fourth = f.acquire(10 * MB, 4);

        GatewayRejectedException e = rejection(fourth);
        assertThat(e.reason()).isEqualTo(Reason.QUEUE_FULL);
        assertThat(e.tier()).isEqualTo(Tier.SMALL);
        assertThat(e.budget()).isFalse();
        assertThat(e.waited()).isEqualTo(Duration.ZERO);
        assertThat(e).hasMessage("SMALL gateway: queue full, waited 0.0 s, estimate 10 MB");
        assertWaiting(second);
        assertWaiting(third);
        assertThat(f.state(Tier.SMALL).queueFullTotal()).isEqualTo(1);
        assertThat(f.listener.rejections).containsExactly(
                new RecordingListener.Rejection(Tier.SMALL, Reason.QUEUE_FULL, 0, 10 * MB));
    }

    @Test
    void rejectionAtAFullQueueGivesBackTheTiersHeld() {
        GatewaySettings settings = Fixture.tiers(2, 1, 1);
        Fixture f = new Fixture(settings.with(Tier.MEDIUM, settings.medium().withMaxQueue(0)), Fixture.TIERS_TARGET);
        Ticket medium = f.acquire(300 * MB, 1);
        assertThat(medium.highestTier()).contains(Tier.MEDIUM);

        // Takes the second SMALL permit, then finds MEDIUM busy and no room to wait.
        Ticket another = f.acquire(300 * MB, 2);

        assertThat(rejection(another).tier()).isEqualTo(Tier.MEDIUM);
        assertThat(f.state(Tier.SMALL).active()).isEqualTo(1);
        assertAdmitted(f.acquire(10 * MB, 3));
    }

    @Test
    void timeoutsGrowWithTheTier() {
        Fixture f = Fixture.forTiers(3, 4, 1);
        f.acquire(600 * MB, 1);                            // SMALL, MEDIUM, LARGE
        Ticket large = f.acquire(600 * MB, 2);             // holds SMALL and MEDIUM, waits for LARGE
        f.acquire(50 * MB, 3);                             // the last SMALL permit
        Ticket small = f.acquire(50 * MB, 4);              // waits for SMALL
        assertWaiting(large);
        assertWaiting(small);

        f.advance(Duration.ofSeconds(29));
        assertWaiting(small);
        f.advance(Duration.ofSeconds(1));

        GatewayRejectedException smallTimeout = rejection(small);
        assertThat(smallTimeout.reason()).isEqualTo(Reason.TIMEOUT);
        assertThat(smallTimeout).hasMessage("SMALL gateway: waited 30.0 s, estimate 50 MB");
        assertWaiting(large);

        f.advance(Duration.ofSeconds(269));
        assertWaiting(large);
        f.advance(Duration.ofSeconds(1));

        GatewayRejectedException largeTimeout = rejection(large);
        assertThat(largeTimeout.tier()).isEqualTo(Tier.LARGE);
        assertThat(largeTimeout.waited()).isEqualTo(Duration.ofSeconds(300));
        assertThat(largeTimeout).hasMessage("LARGE gateway: waited 300.0 s, estimate 600 MB");
        assertThat(f.state(Tier.SMALL).active()).isEqualTo(2);
        assertThat(f.state(Tier.MEDIUM).active()).isEqualTo(1);
        assertThat(f.state(Tier.SMALL).timeoutsTotal()).isEqualTo(1);
        assertThat(f.state(Tier.MEDIUM).timeoutsTotal()).isZero();
        assertThat(f.state(Tier.LARGE).timeoutsTotal()).isEqualTo(1);
        assertThat(f.listener.rejections).extracting(RecordingListener.Rejection::waitedNanos)
                .containsExactly(Duration.ofSeconds(30).toNanos(), Duration.ofSeconds(300).toNanos());
    }

    @Test
    void eachQueueGivesItsOwnTimeoutFromEntryWhileWaitedCountsFromTheStart() {
        Fixture f = Fixture.forTiers(4, 2, 1);
        f.acquire(600 * MB, 1);                            // SMALL, MEDIUM, LARGE
        Ticket medium = f.acquire(200 * MB, 2);            // S = 2: t1 = 128 MB; t2 = 256 MB: MEDIUM only
        Ticket big = f.acquire(600 * MB, 3);               // MEDIUM is full: waits there
        assertThat(big.position().map(WaitingStatement::tier)).contains(Tier.MEDIUM);

        f.advance(Duration.ofSeconds(100));
        f.release(medium);
        assertThat(big.position().map(WaitingStatement::tier)).contains(Tier.LARGE);

        // 399 s since it arrived: past MEDIUM's 120 s and LARGE's 300 s, but only 299 s in LARGE's queue.
        f.advance(Duration.ofSeconds(299));
        assertWaiting(big);
        f.advance(Duration.ofSeconds(1));

        assertThat(rejection(big)).hasMessage("LARGE gateway: waited 400.0 s, estimate 600 MB");
    }

    @Test
    void timeoutThatLostItsRaceToAGrantChangesNothing() {
        Fixture f = Fixture.forTiers(4, 4, 1);
        Ticket first = f.acquire(600 * MB, 1);
        Ticket second = f.acquire(600 * MB, 2);
        ManualTimer.Scheduled timeout = f.timer.everScheduled().getLast();

        f.release(first);
        assertAdmitted(second);
        assertThat(timeout.cancelled).isTrue();

        // The timer thread had already started the task when the grant cancelled it.
        f.advance(Duration.ofSeconds(300));
        timeout.task.run();
        f.gateways.checkInvariants();

        assertAdmitted(second);
        assertThat(f.state(Tier.LARGE).timeoutsTotal()).isZero();
        assertThat(f.state(Tier.LARGE).active()).isEqualTo(1);
        assertThat(f.listener.rejections).isEmpty();
        f.release(second);
        assertThat(f.state(Tier.LARGE).active()).isZero();
    }

    @Test
    void timeoutFromAnEarlierQueueDoesNotRejectTheWaiterInTheNext() {
        Fixture f = Fixture.forTiers(4, 2, 1);
        f.acquire(600 * MB, 1);                            // SMALL, MEDIUM, LARGE
        Ticket medium = f.acquire(200 * MB, 2);            // MEDIUM only
        Ticket big = f.acquire(600 * MB, 3);               // waits for MEDIUM
        ManualTimer.Scheduled mediumTimeout = f.timer.everScheduled().getLast();
        f.release(medium);                                 // big takes MEDIUM, now waits for LARGE
        assertThat(big.position().map(WaitingStatement::tier)).contains(Tier.LARGE);

        f.advance(Duration.ofSeconds(120));
        mediumTimeout.task.run();                          // started before the grant could cancel it
        f.gateways.checkInvariants();

        assertWaiting(big);
        assertThat(f.state(Tier.MEDIUM).timeoutsTotal()).isZero();
    }

    @Test
    void grantedWaiterHasNoTimeoutLeft() {
        Fixture f = Fixture.forTiers(1, 4, 1);
        Ticket first = f.acquire(10 * MB, 1);
        f.acquire(10 * MB, 2);
        assertThat(f.timer.pendingCount()).isEqualTo(1);

        f.release(first);

        assertThat(f.timer.pendingCount()).isZero();
    }

    @Test
    void messagesUsePostgresUnits() {
        assertThat(new GatewayRejectedException(Reason.TIMEOUT, Tier.LARGE, false, Duration.ofSeconds(300), 612 * MB, false))
                .hasMessage("LARGE gateway: waited 300.0 s, estimate 612 MB");
        assertThat(new GatewayRejectedException(Reason.TIMEOUT, Tier.MEDIUM, true, Duration.ofMillis(120_040), 15L << 30, false))
                .hasMessage("MEDIUM gateway: waited 120.0 s for the byte budget, estimate 15 GB");
        assertThat(Sizes.bytes(9000)).isEqualTo("9000 bytes");
        assertThat(Sizes.bytes(10 * 1024)).isEqualTo("10 kB");
        assertThat(Sizes.bytes(9000 * MB)).isEqualTo("9000 MB");
        assertThat(new GatewayRejectedException(Reason.QUEUE_FULL, Tier.SMALL, false, Duration.ZERO, 1, false)
                .getStackTrace()).isEmpty();
    }
}

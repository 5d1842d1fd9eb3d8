package io.memogate.broker.gateway;

import static io.memogate.broker.gateway.Fixture.MB;
import static io.memogate.broker.gateway.Fixture.assertAdmitted;
import static io.memogate.broker.gateway.Fixture.assertWaiting;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Which tiers a statement takes, in which order, and who goes first. Target 8192 MB: t1 = 256 MB / S. */
class TierAdmissionTest {

    @Test
    void statementBelowStaticThresholdPassesWithoutAnyGateway() {
        Fixture f = Fixture.forTiers(1, 1, 1);
        Ticket blocker = f.acquire(10 * MB, 1);

        Ticket tiny = f.acquire(MB - 1, 2);

        assertAdmitted(tiny);
        assertThat(tiny.gated()).isFalse();
        assertThat(tiny.highestTier()).isEmpty();
        assertThat(f.state(Tier.SMALL).active()).isEqualTo(1);
        assertThat(f.gateways.ledger().connections()).isEqualTo(1);
        assertThat(tiny.withdraw()).isFalse();
        f.release(tiny);
        assertThat(f.state(Tier.SMALL).active()).isEqualTo(1);
        assertThat(f.listener.admissions).contains(new RecordingListener.Admission(null, 0, MB - 1));
        f.release(blocker);
    }

    @Test
    void smallStatementHoldsOnlySmall() {
        Fixture f = Fixture.forTiers(4, 4, 1);

        Ticket t = f.acquire(100 * MB, 1);

        assertAdmitted(t);
        assertThat(t.gated()).isTrue();
        assertThat(t.highestTier()).contains(Tier.SMALL);
        assertThat(f.state(Tier.SMALL).active()).isEqualTo(1);
        assertThat(f.state(Tier.MEDIUM).active()).isZero();
        assertThat(f.gateways.ledger().inFlightBytes()).isEqualTo(100 * MB);
    }

    @Test
    void largeStatementHoldsSmallAndMediumWhileWaitingForLarge() {
        Fixture f = Fixture.forTiers(4, 2, 1);
        Ticket first = f.acquire(600 * MB, 1);
        assertAdmitted(first);
        assertThat(first.highestTier()).contains(Tier.LARGE);

        Ticket second = f.acquire(600 * MB, 2);

        assertWaiting(second);
        assertThat(second.highestTier()).contains(Tier.LARGE);
        assertThat(second.position()).get()
                .satisfies(w -> assertThat(w.tier()).isEqualTo(Tier.LARGE))
                .satisfies(w -> assertThat(w.forBudget()).isFalse())
                .satisfies(w -> assertThat(w.position()).isEqualTo(1));
        assertThat(f.state(Tier.SMALL).active()).isEqualTo(2);
        assertThat(f.state(Tier.MEDIUM).active()).isEqualTo(2);
        assertThat(f.state(Tier.LARGE).waiting()).isEqualTo(1);

        // Both MEDIUM permits are held, one by the waiter: a medium statement must wait for MEDIUM.
        Ticket medium = f.acquire(300 * MB, 3);
        assertThat(medium.position().map(WaitingStatement::tier)).contains(Tier.MEDIUM);

        // The release gives back all three of first's tiers: second takes LARGE, medium takes MEDIUM
        // and, with two statements on MEDIUM (t2 = 256 MB), now needs LARGE too.
        f.release(first);
        assertAdmitted(second);
        assertThat(medium.position().map(WaitingStatement::tier)).contains(Tier.LARGE);

        f.release(second);
        assertAdmitted(medium);
        assertThat(medium.highestTier()).contains(Tier.LARGE);
        assertThat(f.state(Tier.SMALL).active()).isEqualTo(1);
        assertThat(f.state(Tier.MEDIUM).active()).isEqualTo(1);
        assertThat(f.state(Tier.LARGE).active()).isEqualTo(1);

        f.release(medium);
        for (Tier tier : Tier.values()) {
            assertThat(f.state(tier).active()).as("%s", tier).isZero();
        }
    }

    @Test
    void tierGrantsInArrivalOrder() {
        Fixture f = Fixture.forTiers(1, 4, 1);
        Ticket a = f.acquire(10 * MB, 1);
        Ticket b = f.acquire(10 * MB, 2);
        Ticket c = f.acquire(10 * MB, 3);
        Ticket d = f.acquire(10 * MB, 4);
        assertThat(b.position().map(WaitingStatement::position)).contains(1);
        assertThat(c.position().map(WaitingStatement::position)).contains(2);
        assertThat(d.position().map(WaitingStatement::position)).contains(3);

        f.advance(Duration.ofSeconds(5));
        f.release(a);

        assertAdmitted(b);
        assertWaiting(c);
        assertThat(c.position().map(WaitingStatement::position)).contains(1);
        assertThat(d.position().map(WaitingStatement::position)).contains(2);
        assertThat(f.listener.admissions).last()
                .isEqualTo(new RecordingListener.Admission(Tier.SMALL, Duration.ofSeconds(5).toNanos(), 10 * MB));

        f.release(b);
        assertAdmitted(c);
        assertWaiting(d);
    }

    @Test
    void sameEstimateNeedsMediumOnceMoreStatementsHoldSmall() {
        Fixture f = Fixture.forTiers(8, 8, 1);
        Ticket alone = f.acquire(100 * MB, 1);
        assertThat(alone.highestTier()).contains(Tier.SMALL);
        f.release(alone);
        assertThat(f.state(Tier.MEDIUM).thresholdBytes()).isEqualTo(256 * MB);

        f.acquire(10 * MB, 2);
        f.acquire(10 * MB, 3);
        assertThat(f.state(Tier.MEDIUM).thresholdBytes()).isEqualTo(128 * MB);

        // Holding SMALL as the third statement: t1 = 256 MB / 3 = 85 MB.
        Ticket crowded = f.acquire(100 * MB, 1);
        assertAdmitted(crowded);
        assertThat(crowded.highestTier()).contains(Tier.MEDIUM);
        assertThat(f.state(Tier.MEDIUM).active()).isEqualTo(1);
    }

    @Test
    void thresholdsFollowTheTarget() {
        Fixture f = Fixture.forTiers(8, 8, 1);
        Ticket before = f.acquire(100 * MB, 1);
        assertThat(before.highestTier()).contains(Tier.SMALL);
        f.release(before);

        f.gateways.target(1024 * MB);

        assertThat(f.state(Tier.MEDIUM).thresholdBytes()).isEqualTo(32 * MB);
        assertThat(f.state(Tier.LARGE).thresholdBytes()).isEqualTo(64 * MB);
        Ticket after = f.acquire(100 * MB, 1);
        assertAdmitted(after);
        assertThat(after.highestTier()).contains(Tier.LARGE);
    }

    @Test
    void waitingListsEveryQueueInOrderWithTags() {
        Fixture f = Fixture.forTiers(2, 4, 1);
        f.gateways.acquire(600 * MB, 1, "big");
        Ticket second = f.gateways.acquire(600 * MB, 2, "second big"); // holds the last SMALL, waits for LARGE
        f.advance(Duration.ofSeconds(2));
        f.gateways.acquire(10 * MB, 3, "small");
        f.advance(Duration.ofSeconds(1));
        f.gateways.acquire(20 * MB, 4, "another small");

        assertThat(f.gateways.waiting()).containsExactly(
                new WaitingStatement(Tier.SMALL, false, 1, 10 * MB, 3, Duration.ofSeconds(1), "small", false),
                new WaitingStatement(Tier.SMALL, false, 2, 20 * MB, 4, Duration.ZERO, "another small", false),
                new WaitingStatement(Tier.LARGE, false, 1, 600 * MB, 2, Duration.ofSeconds(3), "second big", false));
        assertThat(second.position()).contains(f.gateways.waiting().get(2));
    }
}

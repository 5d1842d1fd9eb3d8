package io.memogate.broker.gateway;

import static io.memogate.broker.gateway.Fixture.MB;
import static io.memogate.broker.gateway.Fixture.assertAdmitted;
import static io.memogate.broker.gateway.Fixture.assertWaiting;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A statement given a floor (a long predicted join search) takes the tiers up to it whatever its bytes, and the
 * tier limits then bound how many such statements compile at once. Target 8192 MB: t1 = 256 MB / S.
 */
class TierFloorTest {

    @Test
    void statementBelowStaticThresholdTakesItsFloor() {
        Fixture f = Fixture.forTiers(4, 4, 1);

        Ticket t = f.acquire(MB / 2, Tier.MEDIUM, 1);

        assertAdmitted(t);
        assertThat(t.gated()).isTrue();
        assertThat(t.highestTier()).contains(Tier.MEDIUM);
        assertThat(f.state(Tier.SMALL).active()).isEqualTo(1);
        assertThat(f.state(Tier.MEDIUM).active()).isEqualTo(1);
        assertThat(f.gateways.ledger().inFlightBytes()).as("the budget counts bytes, not the floor")
                .isEqualTo(MB / 2);
        f.release(t);
        assertThat(f.state(Tier.MEDIUM).active()).isZero();
    }

    @Test
    void largeFloorQueuesBehindTheOnlyLargePermit() {
        Fixture f = Fixture.forTiers(4, 4, 1);
        Ticket first = f.acquire(2 * MB, Tier.LARGE, 1);
        assertAdmitted(first);

        Ticket second = f.acquire(2 * MB, Tier.LARGE, 2);
        Ticket point = f.acquire(2 * MB, 3);

        assertWaiting(second);
        assertThat(second.position().map(WaitingStatement::tier)).contains(Tier.LARGE);
        assertAdmitted(point);
        assertThat(point.highestTier()).contains(Tier.SMALL);
        f.release(first);
        assertAdmitted(second);
        f.release(second);
        f.release(point);
    }

    @Test
    void bytesStillClimbAboveTheFloor() {
        Fixture f = Fixture.forTiers(4, 4, 1);

        Ticket t = f.acquire(600 * MB, Tier.SMALL, 1);

        assertAdmitted(t);
        assertThat(t.highestTier()).contains(Tier.LARGE);
        f.release(t);
    }
}

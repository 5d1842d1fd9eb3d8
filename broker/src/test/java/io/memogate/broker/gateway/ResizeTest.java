package io.memogate.broker.gateway;

import static io.memogate.broker.gateway.Fixture.MB;
import static io.memogate.broker.gateway.Fixture.assertAdmitted;
import static io.memogate.broker.gateway.Fixture.assertWaiting;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Runtime changes (config reload): resized in place, nothing admitted lost or counted twice. */
class ResizeTest {

    @Test
    void raisingALimitGrantsWaitersAtOnce() {
        Fixture f = Fixture.forTiers(1, 4, 1);
        f.acquire(10 * MB, 1);
        Ticket b = f.acquire(10 * MB, 2);
        Ticket c = f.acquire(10 * MB, 3);
        Ticket d = f.acquire(10 * MB, 4);

        f.gateways.reconfigure(Fixture.tiers(3, 4, 1));
        f.gateways.checkInvariants();

        assertAdmitted(b);
        assertAdmitted(c);
        assertThat(d.position().map(WaitingStatement::position)).contains(1);
        assertThat(f.state(Tier.SMALL).active()).isEqualTo(3);
        assertThat(f.state(Tier.SMALL).limit()).isEqualTo(3);
    }

    @Test
    void loweringALimitLetsHoldersFinishAndGrantsOnlyBelowIt() {
        Fixture f = Fixture.forTiers(3, 4, 1);
        Ticket a = f.acquire(10 * MB, 1);
        Ticket b = f.acquire(10 * MB, 2);
        Ticket c = f.acquire(10 * MB, 3);

        f.gateways.reconfigure(Fixture.tiers(1, 4, 1));
        Ticket d = f.acquire(10 * MB, 4);

        assertAdmitted(a);
        assertThat(f.state(Tier.SMALL).active()).isEqualTo(3);
        assertWaiting(d);
        f.release(a);
        assertWaiting(d);
        f.release(b);
        assertWaiting(d);
        f.release(c);
        assertAdmitted(d);
        assertThat(f.state(Tier.SMALL).active()).isEqualTo(1);
    }

    @Test
    void thresholdsFollowNewFractionsAndStaticThreshold() {
        Fixture f = Fixture.forTiers(4, 4, 1);
        GatewaySettings settings = Fixture.tiers(4, 4, 1);

        f.gateways.reconfigure(settings.with(Tier.SMALL, settings.small().withFraction(1.0 / 64))
                .withStaticThreshold(20 * MB));

        assertThat(f.state(Tier.MEDIUM).thresholdBytes()).isEqualTo(128 * MB);
        assertThat(f.state(Tier.SMALL).thresholdBytes()).isEqualTo(20 * MB);
        assertThat(f.acquire(10 * MB, 1).gated()).isFalse();
        assertThat(f.acquire(200 * MB, 2).highestTier()).contains(Tier.MEDIUM);
        assertThat(f.gateways.settings().staticThresholdBytes()).isEqualTo(20 * MB);
    }
}

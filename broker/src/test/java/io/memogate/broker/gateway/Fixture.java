package io.memogate.broker.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;

/**
 * Gateways on a manual clock and timer, with helpers that say what a caller would see. After every
 * operation a test makes through it the internal invariants are checked.
 */
final class Fixture {

    static final long MB = 1L << 20;

    final ManualClock clock = new ManualClock();
    final ManualTimer timer = new ManualTimer(clock);
    final RecordingListener listener = new RecordingListener();
    final LocalGateways gateways;

    Fixture(GatewaySettings settings, long targetBytes) {
        this(settings, targetBytes, CompileMemoryRetention.RETAINED_UNTIL_CONNECTION_ENDS);
    }

    Fixture(GatewaySettings settings, long targetBytes, CompileMemoryRetention retention) {
        gateways = new LocalGateways(settings, targetBytes, clock, timer, listener, retention);
    }

    /**
     * Settings where the tiers are easy to reason about with an 8192 MB target: t0 = 1 MB,
     * t1 = 256 MB / S_small, t2 = 512 MB / S_medium (fractions 1/32 and 1/16, exact in binary); the byte
     * budget is far away. Queues of 10; timeouts 30 s, 120 s, 300 s.
     */
    static GatewaySettings tiers(int small, int medium, int large) {
        return new GatewaySettings(MB,
                new TierSettings(small, 1.0 / 32, 10, Duration.ofSeconds(30)),
                new TierSettings(medium, 1.0 / 16, 10, Duration.ofSeconds(120)),
                new TierSettings(large, 1.0, 10, Duration.ofSeconds(300)));
    }

    static final long TIERS_TARGET = 8192 * MB;

    /**
     * Settings where only the byte budget holds statements back: target 1000 MB, every tier 8 wide, the
     * default fractions (t1 = 250 MB / S_small, t2 = 500 MB / S_medium) and timeouts.
     */
    static Fixture forBudget() {
        return forBudget(CompileMemoryRetention.RETAINED_UNTIL_CONNECTION_ENDS);
    }

    static Fixture forBudget(CompileMemoryRetention retention) {
        return new Fixture(new GatewaySettings(MB,
                new TierSettings(8, 0.25, 10, Duration.ofSeconds(30)),
                new TierSettings(8, 0.5, 10, Duration.ofSeconds(120)),
                new TierSettings(8, 1.0, 10, Duration.ofSeconds(300))), 1000 * MB, retention);
    }

    static Fixture forTiers(int small, int medium, int large) {
        return new Fixture(tiers(small, medium, large), TIERS_TARGET);
    }

    Ticket acquire(long estimate, long connection) {
        Ticket t = gateways.acquire(estimate, connection);
        gateways.checkInvariants();
        return t;
    }

    Ticket acquire(long estimate, Tier atLeast, long connection) {
        Ticket t = gateways.acquire(estimate, atLeast, connection, null);
        gateways.checkInvariants();
        return t;
    }

    void release(Ticket t) {
        t.release();
        gateways.checkInvariants();
    }

    void advance(Duration by) {
        timer.advance(by);
        gateways.checkInvariants();
    }

    TierState state(Tier tier) {
        return gateways.state(tier);
    }

    static void assertAdmitted(Ticket t) {
        assertThat(t.admitted()).as("%s admitted", t).isCompletedWithValue(t);
        assertThat(t.position()).isEmpty();
    }

    static void assertWaiting(Ticket t) {
        assertThat(t.admitted()).as("%s still waiting", t).isNotDone();
        assertThat(t.position()).isPresent();
    }

    static GatewayRejectedException rejection(Ticket t) {
        assertThat(t.admitted()).as("%s rejected", t).isCompletedExceptionally();
        try {
            t.admitted().join();
        } catch (CompletionException e) {
            assertThat(e.getCause()).isInstanceOf(GatewayRejectedException.class);
            return (GatewayRejectedException) e.getCause();
        } catch (CancellationException e) {
            throw new AssertionError(t + " was cancelled, not rejected", e);
        }
        throw new AssertionError("unreachable");
    }
}

package io.memogate.broker.gateway;

import static io.memogate.broker.gateway.Fixture.MB;
import static io.memogate.broker.gateway.Fixture.assertAdmitted;
import static io.memogate.broker.gateway.Fixture.assertWaiting;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CancellationException;
import org.junit.jupiter.api.Test;

/** Leaving a queue: a cancelled statement (57014) or a client gone. Target 8192 MB: t1 = 256 MB / S. */
class WithdrawTest {

    @Test
    void withdrawnWaiterGivesBackItsTiersAndLetsTheNextIn() {
        Fixture f = Fixture.forTiers(2, 1, 1);
        f.acquire(300 * MB, 1);                            // SMALL and MEDIUM
        Ticket waiting = f.acquire(300 * MB, 2);           // the last SMALL permit, waits for MEDIUM
        Ticket small = f.acquire(10 * MB, 3);              // SMALL is full
        assertWaiting(small);

        assertThat(waiting.withdraw()).isTrue();

        assertThat(waiting.admitted()).isCancelled();
        assertThat(waiting.admitted()).failsWithin(java.time.Duration.ZERO)
                .withThrowableThat().isInstanceOf(CancellationException.class);
        assertThat(waiting.position()).isEmpty();
        assertAdmitted(small);
        assertThat(f.state(Tier.MEDIUM).waiting()).isZero();
        assertThat(f.state(Tier.SMALL).active()).isEqualTo(2);
        assertThat(f.listener.rejections).isEmpty();

        f.release(waiting);                                // a no-op after withdrawal
        assertThat(f.state(Tier.SMALL).active()).isEqualTo(2);
        assertThat(waiting.withdraw()).isFalse();
    }

    @Test
    void withdrawnWaiterFreesItsPlaceInTheQueue() {
        Fixture f = Fixture.forTiers(1, 4, 1);
        Ticket first = f.acquire(10 * MB, 1);
        Ticket second = f.acquire(10 * MB, 2);
        Ticket third = f.acquire(10 * MB, 3);

        assertThat(second.withdraw()).isTrue();

        assertThat(third.position().map(WaitingStatement::position)).contains(1);
        f.release(first);
        assertAdmitted(third);
    }

    @Test
    void withdrawAfterTheGrantReturnsFalseAndKeepsThePermits() {
        Fixture f = Fixture.forTiers(1, 4, 1);
        Ticket first = f.acquire(10 * MB, 1);
        Ticket second = f.acquire(10 * MB, 2);
        f.release(first);

        assertThat(second.withdraw()).isFalse();

        assertAdmitted(second);
        assertThat(f.state(Tier.SMALL).active()).isEqualTo(1);
        f.release(second);
        assertThat(second.withdraw()).isFalse();
        assertThat(f.state(Tier.SMALL).active()).isZero();
    }

    @Test
    void cancellingTheFutureWithdraws() {
        Fixture f = Fixture.forTiers(1, 4, 1);
        Ticket first = f.acquire(10 * MB, 1);
        Ticket second = f.acquire(10 * MB, 2);

        assertThat(second.admitted().cancel(true)).isTrue();

        assertThat(f.state(Tier.SMALL).waiting()).isZero();
        f.release(first);
        assertThat(f.state(Tier.SMALL).active()).isZero();
        assertThat(first.admitted().cancel(true)).isFalse();
    }

    @Test
    void releaseWhileWaitingWithdrawsSoThatNoGrantLeaks() {
        Fixture f = Fixture.forTiers(1, 4, 1);
        Ticket first = f.acquire(10 * MB, 1);
        Ticket gone = f.acquire(10 * MB, 2);

        f.release(gone);                                   // the client disconnected while queued

        assertThat(gone.admitted()).isCancelled();
        f.release(first);
        assertThat(f.state(Tier.SMALL).active()).isZero();
        assertThat(f.gateways.ledger().inFlightBytes()).isZero();
    }

    @Test
    void grantNobodyCanSeeIsReleased() {
        Fixture f = Fixture.forTiers(1, 4, 1);
        Ticket first = f.acquire(10 * MB, 1);
        Ticket second = f.acquire(10 * MB, 2);
        // The caller gave up through the future (orTimeout does this) instead of withdraw().
        second.admitted().completeExceptionally(new IllegalStateException("caller gave up"));

        f.release(first);

        assertThat(f.state(Tier.SMALL).active()).isZero();
        assertThat(f.gateways.ledger().inFlightBytes()).isZero();
    }

    @Test
    void gatewaysRefuseATicketOtherGatewaysIssuedAndIgnoreAnUngatedOne() {
        Fixture f = Fixture.forTiers(1, 4, 1);
        Fixture other = Fixture.forTiers(1, 4, 1);
        Ticket theirs = other.acquire(10 * MB, 1);
        Ticket ungated = other.acquire(MB / 2, 2);

        assertThatThrownBy(() -> f.gateways.release(theirs)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> f.gateways.withdraw(theirs)).isInstanceOf(IllegalArgumentException.class);
        f.gateways.release(ungated);

        assertThat(f.state(Tier.SMALL).active()).isZero();
        assertThat(other.state(Tier.SMALL).active()).isEqualTo(1);
        f.gateways.checkInvariants();
    }
}

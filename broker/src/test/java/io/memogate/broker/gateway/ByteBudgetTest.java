package io.memogate.broker.gateway;

import static io.memogate.broker.gateway.Fixture.MB;
import static io.memogate.broker.gateway.Fixture.assertAdmitted;
import static io.memogate.broker.gateway.Fixture.assertWaiting;
import static io.memogate.broker.gateway.Fixture.rejection;
import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.broker.gateway.GatewayRejectedException.Reason;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The byte budget over sticky memory (DESIGN.md): target 1000 MB, tiers wide enough never to block.
 * Connection ids are backend pids.
 */
class ByteBudgetTest {

    private final Fixture f = Fixture.forBudget();

    @Test
    void memoryRetainedByIdleConnectionsCountsUntilTheyClose() {
        f.release(f.acquire(600 * MB, 1));                 // connection 1 keeps 600 MB
        assertThat(f.gateways.ledger()).isEqualTo(new LedgerState(1000 * MB, 600 * MB, 0, 1, 0));
        Ticket inFlight = f.acquire(100 * MB, 3);

        Ticket waiting = f.acquire(500 * MB, 2);           // 600 + 100 + 500 > 1000

        assertWaiting(waiting);
        assertThat(waiting.position()).get().satisfies(w -> {
            assertThat(w.forBudget()).isTrue();
            assertThat(w.tier()).isNull();
            assertThat(w.position()).isEqualTo(1);
        });
        assertThat(f.gateways.ledger().budgetWaiting()).isEqualTo(1);

        f.gateways.connectionClosed(1);

        assertAdmitted(waiting);
        assertThat(f.gateways.ledger()).isEqualTo(new LedgerState(1000 * MB, 600 * MB, 600 * MB, 2, 0));
        assertAdmitted(inFlight);
    }

    @Test
    void costIsOnlyWhatTheConnectionDoesNotRetainAlready() {
        f.release(f.acquire(600 * MB, 1));
        f.acquire(300 * MB, 3);                            // total 900

        Ticket onFatConnection = f.acquire(700 * MB, 1);   // costs 100
        Ticket onFreshConnection = f.acquire(100 * MB, 2); // costs 100, but the budget is now used up

        assertAdmitted(onFatConnection);
        assertThat(f.gateways.ledger().totalBytes()).isEqualTo(1000 * MB);
        assertWaiting(onFreshConnection);
    }

    @Test
    void statementThatCostsNothingPassesWaitersWhileOthersQueueBehindTheHead() {
        f.release(f.acquire(600 * MB, 1));
        f.acquire(300 * MB, 3);                            // total 900
        Ticket head = f.acquire(500 * MB, 2);

        Ticket free = f.acquire(400 * MB, 1);              // connection 1 already holds 600 MB
        Ticket behind = f.acquire(50 * MB, 4);             // would fit (950), but arrived after head

        assertAdmitted(free);
        assertThat(f.gateways.ledger().totalBytes()).isEqualTo(900 * MB);
        assertWaiting(head);
        assertThat(behind.position().map(WaitingStatement::position)).contains(2);
    }

    @Test
    void measuredRetainedMemoryReplacesTheEstimate() {
        f.release(f.acquire(600 * MB, 1));
        f.acquire(300 * MB, 3);
        Ticket waiting = f.acquire(500 * MB, 2);
        assertWaiting(waiting);

        f.gateways.retained(1, 100 * MB);                  // the backend gave most of it back to the OS

        assertAdmitted(waiting);
        assertThat(f.gateways.ledger().totalBytes()).isEqualTo(900 * MB);
        f.release(waiting);
        assertThat(f.gateways.ledger().totalBytes()).isEqualTo(900 * MB); // connection 2 retains 500
    }

    @Test
    void statementLargerThanTheTargetIsAdmittedAlone() {
        Ticket huge = f.acquire(1500 * MB, 1);
        assertAdmitted(huge);

        Ticket next = f.acquire(10 * MB, 2);
        assertWaiting(next);

        // Connection 1 still retains 1500 MB, more than the target, but nothing is in flight.
        f.release(huge);
        assertAdmitted(next);
    }

    @Test
    void budgetWaitTimesOutWithTheHighestTiersTimeout() {
        Ticket big = f.acquire(950 * MB, 1);
        assertThat(big.highestTier()).contains(Tier.LARGE);
        Ticket small = f.acquire(100 * MB, 2);             // S = 2: t1 = 125 MB, so SMALL only
        assertThat(small.highestTier()).contains(Tier.SMALL);
        assertWaiting(small);

        f.advance(Duration.ofSeconds(29));
        assertWaiting(small);
        f.advance(Duration.ofSeconds(1));

        GatewayRejectedException e = rejection(small);
        assertThat(e.reason()).isEqualTo(Reason.TIMEOUT);
        assertThat(e.tier()).isEqualTo(Tier.SMALL);
        assertThat(e.budget()).isTrue();
        assertThat(e).hasMessage("SMALL gateway: waited 30.0 s for the byte budget, estimate 100 MB");
        assertThat(f.state(Tier.SMALL).active()).isEqualTo(1);
        assertThat(f.state(Tier.SMALL).timeoutsTotal()).isEqualTo(1);
        assertThat(f.gateways.ledger().budgetWaiting()).isZero();
    }

    @Test
    void connectionClosedDuringFlightIsNotCountedAgainOnRelease() {
        Ticket a = f.acquire(600 * MB, 1);
        f.gateways.connectionClosed(1);
        assertThat(f.gateways.ledger()).isEqualTo(new LedgerState(1000 * MB, 0, 0, 0, 0));
        assertAdmitted(a);

        Ticket b = f.acquire(900 * MB, 2);
        Ticket reusedPid = f.acquire(50 * MB, 1);          // a new backend got pid 1
        assertAdmitted(b);
        assertAdmitted(reusedPid);

        f.release(a);

        assertThat(f.gateways.ledger()).isEqualTo(new LedgerState(1000 * MB, 950 * MB, 950 * MB, 2, 0));
        f.release(reusedPid);
        f.release(b);
        assertThat(f.gateways.ledger()).isEqualTo(new LedgerState(1000 * MB, 950 * MB, 0, 2, 0));
        assertThat(f.state(Tier.SMALL).active()).isZero();
    }

    @Test
    void smallerTargetPreemptsNothingAndALargerOneAdmitsWaiters() {
        Ticket a = f.acquire(600 * MB, 1);

        f.gateways.target(500 * MB);
        Ticket b = f.acquire(100 * MB, 2);

        assertAdmitted(a);
        assertThat(f.gateways.ledger().totalBytes()).isEqualTo(600 * MB);
        assertWaiting(b);

        f.gateways.target(800 * MB);

        assertAdmitted(b);
        assertThat(f.gateways.target()).isEqualTo(800 * MB);
    }

    @Test
    void statementsBelowStaticThresholdDoNotTouchTheLedger() {
        f.acquire(999 * MB, 1);

        Ticket tiny = f.acquire(MB / 2, 2);

        assertAdmitted(tiny);
        f.release(tiny);
        assertThat(f.gateways.ledger()).isEqualTo(new LedgerState(1000 * MB, 999 * MB, 999 * MB, 1, 0));
    }
}

package io.memogate.broker.gateway;

import static io.memogate.broker.gateway.Fixture.MB;
import static io.memogate.broker.gateway.Fixture.assertAdmitted;
import static io.memogate.broker.gateway.Fixture.assertWaiting;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * What a finished compile leaves in the byte budget, by the server's {@link CompileMemoryRetention}: the same
 * statements (target 1000 MB) wait behind a connection that keeps its plan's memory, and pass where the
 * server gave it back.
 */
class CompileMemoryRetentionTest {

    @Test
    void aConnectionThatRetainsItsCompileKeepsItsBytesInTheBudget() {
        Fixture f = Fixture.forBudget(CompileMemoryRetention.RETAINED_UNTIL_CONNECTION_ENDS);
        f.release(f.acquire(600 * MB, 1));
        f.acquire(100 * MB, 3);

        Ticket next = f.acquire(500 * MB, 2);              // 600 kept + 100 in flight + 500 > 1000

        assertWaiting(next);
        assertThat(f.gateways.retainedBy(1)).isEqualTo(600 * MB);
        assertThat(f.gateways.ledger()).isEqualTo(new LedgerState(1000 * MB, 700 * MB, 100 * MB, 2, 1));
    }

    @Test
    void aCompileWhoseMemoryIsReleasedFreesItsBytesWhenItEnds() {
        Fixture f = Fixture.forBudget(CompileMemoryRetention.RELEASED_AFTER_COMPILE);
        f.release(f.acquire(600 * MB, 1));
        f.acquire(100 * MB, 3);

        Ticket next = f.acquire(500 * MB, 2);              // 100 in flight + 500 <= 1000

        assertAdmitted(next);
        assertThat(f.gateways.retainedBy(1)).isZero();
        assertThat(f.gateways.ledger()).isEqualTo(new LedgerState(1000 * MB, 600 * MB, 600 * MB, 3, 0));
    }

    @Test
    void aReleasingServerStillCountsWhatTheBrokerMeasured() {
        Fixture f = Fixture.forBudget(CompileMemoryRetention.RELEASED_AFTER_COMPILE);
        f.gateways.retained(1, 100 * MB);                  // the process holds this, whatever compiles leave

        f.release(f.acquire(300 * MB, 1));

        assertThat(f.gateways.retainedBy(1)).isEqualTo(100 * MB);
        assertThat(f.gateways.ledger().totalBytes()).isEqualTo(100 * MB);
    }

    @Test
    void memoryKeptByTheAllocatorStaysInTheBudgetAndAMeasurementOnlyRaisesIt() {
        Fixture f = Fixture.forBudget(CompileMemoryRetention.KEPT_BY_THE_ALLOCATOR);
        f.release(f.acquire(600 * MB, 1));
        f.acquire(100 * MB, 3);

        assertWaiting(f.acquire(500 * MB, 2));             // 600 kept + 100 in flight + 500 > 1000
        assertThat(f.gateways.retainedBy(1)).isEqualTo(600 * MB);
        assertThat(CompileMemoryRetention.KEPT_BY_THE_ALLOCATOR.afterMeasurement(600 * MB, 20 * MB)).isEqualTo(600 * MB);
        assertThat(CompileMemoryRetention.KEPT_BY_THE_ALLOCATOR.afterMeasurement(600 * MB, 700 * MB)).isEqualTo(700 * MB);
        assertThat(CompileMemoryRetention.RETAINED_UNTIL_CONNECTION_ENDS.afterMeasurement(600 * MB, 20 * MB))
                .isEqualTo(20 * MB);
    }
}

package io.memogate.proxy.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.broker.gateway.GatewayListener;
import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.broker.gateway.Gateways;
import io.memogate.broker.gateway.LocalGateways;
import io.memogate.broker.gateway.Tier;
import io.memogate.proxy.admission.QueuedStatement;
import io.memogate.proxy.admission.SessionInfo;
import io.memogate.proxy.admission.WaitPredictor;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * SHOW QUEUE's degrade column and EXPLAIN ADMISSION's predicted_wait column: the wait predicted from the holds seen
 * so far and the place in the queue, or why none is predicted.
 */
class WaitViewsTest {

    private static final long TARGET = 100L << 20;
    private final Gateways gateways = new LocalGateways(GatewaySettings.defaults(2), TARGET, System::nanoTime,
            (task, delayNanos) -> () -> { }, GatewayListener.NONE);
    private final WaitPredictor waits = new WaitPredictor(System::nanoTime);
    private final SessionInfo session = new SessionInfo("reports", "warehouse", "bi",
            new InetSocketAddress("10.1.2.3", 50000));

    /** {@code count} holds of LARGE, of {@code each}. */
    private void largeHolds(int count, Duration each) {
        for (int i = 0; i < count; i++) {
            waits.held(Tier.LARGE, each);
        }
    }

    private void holdLarge() {
        assertThat(gateways.acquire(TARGET / 2 + 1, 1).highestTier()).contains(Tier.LARGE);
    }

    /** The degrade column of the one statement queued, which degrades after {@code after}. */
    private String queuedColumn(Duration after) {
        QueuedStatement statement = new QueuedStatement(session, "select ...", 0, "after 5.0 s", after);
        gateways.acquire(TARGET / 2 + 1, 2, statement);
        ResultTable queue = AdmissionViews.queue(gateways, waits);
        assertThat(queue.rows()).hasSize(1);
        return queue.rows().get(0).get(queue.columns().indexOf("degrade"));
    }

    @Test
    void showQueueGivesTheWaitPredictedForAStatementThatDegradesAfterWaiting() {
        largeHolds(WaitPredictor.MIN_HOLDS, Duration.ofSeconds(8));
        holdLarge();
        assertThat(queuedColumn(Duration.ofSeconds(5))).isEqualTo("after 5.0 s; predicted wait 8.0 s (position 1 for "
                + "the LARGE gateway, 1 permit, recent holds 8.0 s on average)");
    }

    @Test
    void showQueueSaysWhyNoWaitIsPredicted() {
        largeHolds(2, Duration.ofSeconds(8));
        holdLarge();
        assertThat(queuedColumn(Duration.ofSeconds(5))).isEqualTo("after 5.0 s; no predicted wait: 2 of 5 LARGE holds "
                + "seen");
    }

    @Test
    void showQueueLeavesTheColumnOfAStatementThatDoesNotDegradeAfterWaiting() {
        largeHolds(WaitPredictor.MIN_HOLDS, Duration.ofSeconds(8));
        holdLarge();
        gateways.acquire(TARGET / 2 + 1, 2, new QueuedStatement(session, "select ...", 0, null));
        ResultTable queue = AdmissionViews.queue(gateways, waits);
        assertThat(queue.rows().get(0).get(queue.columns().indexOf("degrade"))).isNull();
    }

    @Test
    void explainGivesTheWaitOfAStatementArrivingNowAsTheLastInItsQueue() {
        largeHolds(WaitPredictor.MIN_HOLDS, Duration.ofSeconds(8));
        assertThat(WaitViews.explainColumn(Optional.of(Tier.LARGE), gateways, waits))
                .isEqualTo("none: the LARGE gateway has a free permit");
        holdLarge();
        gateways.acquire(TARGET / 2 + 1, 2);
        assertThat(WaitViews.explainColumn(Optional.of(Tier.LARGE), gateways, waits)).as("one queued before it")
                .isEqualTo("predicted wait 16.0 s (position 2 for the LARGE gateway, 1 permit, recent holds 8.0 s "
                        + "on average)");
        assertThat(WaitViews.explainColumn(Optional.empty(), gateways, waits)).as("below t0").isNull();
    }

    @Test
    void explainSaysWhyNoWaitIsPredicted() {
        holdLarge();
        assertThat(WaitViews.explainColumn(Optional.of(Tier.LARGE), gateways, waits))
                .isEqualTo("no predicted wait: 0 of 5 LARGE holds seen");
        gateways.pause();
        assertThat(WaitViews.explainColumn(Optional.of(Tier.LARGE), gateways, waits))
                .isEqualTo("no predicted wait while the gateways are paused");
    }
}

package io.memogate.proxy.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.broker.gateway.Tier;
import io.memogate.broker.gateway.WaitingStatement;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The predicted wait of a queued statement: position x the weighted mean hold of its tier / the tier's permits,
 * only once enough holds of the tier were seen; none for the byte budget or while paused. The hold clock is the
 * test's.
 */
class WaitPredictorTest {

    private final AtomicLong now = new AtomicLong(1_000);
    private final WaitPredictor waits = new WaitPredictor(now::get);

    private void holds(Tier tier, Duration each, int count) {
        for (int i = 0; i < count; i++) {
            waits.held(tier, each);
        }
    }

    @Test
    void predictsNothingUntilEnoughHoldsOfTheTierWereSeen() {
        holds(Tier.LARGE, Duration.ofSeconds(4), WaitPredictor.MIN_HOLDS - 1);
        assertThat(waits.predict(Tier.LARGE, 1, 1)).isEmpty();
        assertThat(waits.noPrediction(Tier.LARGE)).isEqualTo("no predicted wait: 4 of 5 LARGE holds seen");
        waits.held(Tier.LARGE, Duration.ofSeconds(4));
        assertThat(waits.predict(Tier.LARGE, 1, 1)).map(PredictedWait::expected).contains(Duration.ofSeconds(4));
        assertThat(waits.predict(Tier.MEDIUM, 1, 1)).as("another tier's history is its own").isEmpty();
    }

    @Test
    void theWaitGrowsWithThePlaceInTheQueueAndShrinksWithThePermits() {
        holds(Tier.MEDIUM, Duration.ofSeconds(6), WaitPredictor.MIN_HOLDS);
        PredictedWait third = waits.predict(Tier.MEDIUM, 3, 2).orElseThrow();
        assertThat(third.expected()).isEqualTo(Duration.ofSeconds(9));
        assertThat(third.meanHold()).isEqualTo(Duration.ofSeconds(6));
        assertThat(third.describe()).isEqualTo(
                "predicted wait 9.0 s (position 3 for the MEDIUM gateway, 2 permits, recent holds 6.0 s on average)");
        assertThat(waits.predict(Tier.MEDIUM, 1, 1).orElseThrow().expected()).isEqualTo(Duration.ofSeconds(6));
        assertThat(waits.predict(Tier.MEDIUM, 1, 0)).as("a tier with no permit to count on").isEmpty();
    }

    @Test
    void recentHoldsWeighMoreThanOldOnes() {
        holds(Tier.LARGE, Duration.ofSeconds(2), 20);
        waits.held(Tier.LARGE, Duration.ofSeconds(12));
        Duration mean = waits.predict(Tier.LARGE, 1, 1).orElseThrow().meanHold();
        // One hold of 12 s after many of 2 s: the mean moves by the weight of the newest, not by 1/21.
        assertThat(mean).isEqualTo(Duration.ofMillis(Math.round(2000 + WaitPredictor.WEIGHT * 10_000)));
        holds(Tier.LARGE, Duration.ofSeconds(12), 30);
        assertThat(waits.predict(Tier.LARGE, 1, 1).orElseThrow().meanHold())
                .as("after a run of long holds the mean is theirs").isBetween(Duration.ofMillis(11_900),
                        Duration.ofSeconds(12));
    }

    @Test
    void aReleaseCountsAHoldOfEveryTierUpToTheHighest() {
        for (int i = 0; i < WaitPredictor.MIN_HOLDS; i++) {
            long granted = waits.now();
            now.addAndGet(Duration.ofSeconds(3).toNanos());
            waits.released(Tier.MEDIUM, granted);
        }
        assertThat(waits.holds(Tier.SMALL)).isEqualTo(WaitPredictor.MIN_HOLDS);
        assertThat(waits.holds(Tier.MEDIUM)).isEqualTo(WaitPredictor.MIN_HOLDS);
        assertThat(waits.holds(Tier.LARGE)).isZero();
        assertThat(waits.predict(Tier.SMALL, 2, 1).orElseThrow().expected()).isEqualTo(Duration.ofSeconds(6));
    }

    @Test
    void nothingIsPredictedForTheBudgetOrWhileThePauseHoldsTheQueue() {
        holds(Tier.LARGE, Duration.ofSeconds(5), WaitPredictor.MIN_HOLDS);
        WaitingStatement budget = new WaitingStatement(null, true, 1, 1 << 20, 7, Duration.ZERO, null, false);
        WaitingStatement paused = new WaitingStatement(Tier.LARGE, false, 1, 1 << 20, 7, Duration.ZERO, null, true);
        WaitingStatement queued = new WaitingStatement(Tier.LARGE, false, 2, 1 << 20, 7, Duration.ZERO, null, false);
        assertThat(waits.predict(budget, 1)).isEmpty();
        assertThat(waits.noPrediction(budget)).isEqualTo("no predicted wait for the compile-memory budget");
        assertThat(waits.predict(paused, 1)).isEmpty();
        assertThat(waits.noPrediction(paused)).isEqualTo("no predicted wait while the gateways are paused");
        assertThat(waits.predict(queued, 1).orElseThrow().expected()).isEqualTo(Duration.ofSeconds(10));
    }
}

package io.memogate.proxy.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.CompileEstimate;
import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.EstimatorStatistics;
import io.memogate.estimator.postgres.MemoryCoefficients;
import io.memogate.estimator.postgres.PlannerSettings;
import org.junit.jupiter.api.Test;

class CurrentEstimatorTest {

    private static final String CHAIN = "select * from a, b, c where a.x = b.x and b.y = c.y"; // 4 pairs, 3 relations

    @Test
    void newCoefficientsBringANewEstimatorWhoseBytesFollowThem() {
        CurrentEstimator current = new CurrentEstimator(MemoryCoefficients.DEFAULTS);
        CompileEstimate first = current.get().estimate(CHAIN, PlannerSettings.DEFAULTS);

        current.use(new MemoryCoefficients(1000, 100, 0, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));

        MemoryCoefficients d = MemoryCoefficients.DEFAULTS;
        assertThat(first.estimatedBytes()).isEqualTo((long) Math.ceil(d.fixedBytes() + d.bytesPerBlock()
                + first.terms().tokens() * d.bytesPerToken() + 4 * d.bytesPerJoinPair() + 3 * d.bytesPerJoinRelation()
                + 3 * d.bytesPerRelation()));
        assertThat(current.get().estimate(CHAIN, PlannerSettings.DEFAULTS).estimatedBytes()).isEqualTo(1430);
    }

    @Test
    void theSameCoefficientsKeepTheEstimatorAndItsCache() {
        CurrentEstimator current = new CurrentEstimator(MemoryCoefficients.DEFAULTS);
        CompileEstimator first = current.get();

        current.use(MemoryCoefficients.of(MemoryCoefficients.DEFAULTS.toArray()));

        assertThat(current.get()).isSameAs(first);
    }

    @Test
    void statisticsCountAcrossSwapsSoThatRatesNeverGoNegative() {
        CurrentEstimator current = new CurrentEstimator(MemoryCoefficients.DEFAULTS);
        current.get().estimate(CHAIN, PlannerSettings.DEFAULTS); // miss
        current.get().estimate(CHAIN, PlannerSettings.DEFAULTS); // hit

        current.use(new MemoryCoefficients(1000, 100, 0, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
        current.get().estimate(CHAIN, PlannerSettings.DEFAULTS); // miss: the new estimator's cache is empty

        assertThat(current.statistics()).isEqualTo(new EstimatorStatistics(1, 2, 0));
    }
}

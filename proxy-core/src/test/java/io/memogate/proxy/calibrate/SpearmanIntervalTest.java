package io.memogate.proxy.calibrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import org.junit.jupiter.api.Test;

class SpearmanIntervalTest {

    @Test
    void estimatesThatRankEveryStatementRightHaveNoSpread() {
        double[] measured = {1, 2, 3, 4, 5, 6, 7, 8};
        double[] estimated = {10, 20, 30, 40, 50, 60, 70, 80};

        SpearmanInterval interval = SpearmanInterval.of(measured, estimated);

        assertThat(interval.low()).isEqualTo(1.0);
        assertThat(interval.high()).isEqualTo(1.0);
        assertThat(interval.describe()).isEqualTo("1.000-1.000");
    }

    /**
     * The same relation between estimate and measurement, seen over 20 statements and over 200: the figure of the
     * few is known far less closely, and both intervals hold their own figure.
     */
    @Test
    void aFewStatementsGiveAWiderIntervalThanManyAroundTheirOwnFigure() {
        double[][] few = noisyRanks(20, new Random(7));
        double[][] many = noisyRanks(200, new Random(7));

        SpearmanInterval fewInterval = SpearmanInterval.of(few[0], few[1]);
        SpearmanInterval manyInterval = SpearmanInterval.of(many[0], many[1]);

        assertThat(RankCorrelation.spearman(few[0], few[1])).isBetween(fewInterval.low(), fewInterval.high());
        assertThat(RankCorrelation.spearman(many[0], many[1])).isBetween(manyInterval.low(), manyInterval.high());
        assertThat(fewInterval.high() - fewInterval.low())
                .isGreaterThan(2 * (manyInterval.high() - manyInterval.low()));
    }

    @Test
    void aReportWrittenTwiceSaysTheSame() {
        double[][] data = noisyRanks(30, new Random(3));

        assertThat(SpearmanInterval.of(data[0], data[1])).isEqualTo(SpearmanInterval.of(data[0], data[1]));
    }

    @Test
    void fourStatementsGiveNoInterval() {
        SpearmanInterval interval = SpearmanInterval.of(new double[] {1, 2, 3, 4}, new double[] {2, 1, 4, 3});

        assertThat(interval.low()).isNaN();
        assertThat(interval.high()).isNaN();
        assertThat(interval.describe()).isEqualTo("n/a");
    }

    @Test
    void measurementsAndEstimatesMustPair() {
        assertThatThrownBy(() -> SpearmanInterval.of(new double[] {1, 2, 3, 4, 5}, new double[] {1, 2, 3, 4}))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /** Measurements spread over three orders of magnitude, each estimated within a factor of about 1.5 either way. */
    private static double[][] noisyRanks(int n, Random random) {
        double[] measured = new double[n];
        double[] estimated = new double[n];
        for (int i = 0; i < n; i++) {
            measured[i] = Math.pow(10, 6 + 3 * random.nextDouble());
            estimated[i] = measured[i] * Math.exp(0.4 * random.nextGaussian());
        }
        return new double[][] {measured, estimated};
    }
}

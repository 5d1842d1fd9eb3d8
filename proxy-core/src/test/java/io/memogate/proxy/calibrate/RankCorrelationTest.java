package io.memogate.proxy.calibrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class RankCorrelationTest {

    @Test
    void anyIncreasingRelationIsOne() {
        assertThat(RankCorrelation.spearman(new double[] {1, 2, 3, 4}, new double[] {10, 400, 401, 9e9}))
                .isEqualTo(1.0);
        assertThat(RankCorrelation.spearman(new double[] {1, 2, 3, 4}, new double[] {4, 3, 2, 1})).isEqualTo(-1.0);
    }

    @Test
    void tiesShareTheMeanOfTheirRanks() {
        assertThat(RankCorrelation.ranks(new double[] {5, 1, 5, 3, 5})).containsExactly(4, 1, 4, 2, 4);
    }

    /** Worked by hand: ranks x = 1, 2.5, 2.5, 4 and y = 1, 2, 3, 4; Pearson of those is 0.9487. */
    @Test
    void tiesLowerTheCorrelationAsPearsonOnRanksSays() {
        double rho = RankCorrelation.spearman(new double[] {1, 2, 2, 3}, new double[] {10, 20, 30, 40});

        assertThat(rho).isCloseTo(4.5 / Math.sqrt(4.5 * 5), within(1e-12));
        assertThat(rho).isCloseTo(0.9487, within(1e-4));
    }

    @Test
    void undefinedWithoutSpread() {
        assertThat(RankCorrelation.spearman(new double[] {1}, new double[] {2})).isNaN();
        assertThat(RankCorrelation.spearman(new double[] {1, 2, 3}, new double[] {7, 7, 7})).isNaN();
    }
}

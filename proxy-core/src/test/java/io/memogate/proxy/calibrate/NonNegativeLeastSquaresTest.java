package io.memogate.proxy.calibrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class NonNegativeLeastSquaresTest {

    /**
     * The unconstrained solution (4, -1) is infeasible; the second column enters first (it correlates
     * best with b), then leaves when the first enters, and the first alone fits b's mean.
     */
    @Test
    void clampsAtZeroAndRefitsTheRest() {
        double[][] a = {{1, 1}, {1, 2}, {1, 3}};
        double[] b = {3, 2, 1}; // exactly x = (4, -1)

        double[] x = NonNegativeLeastSquares.solve(a, b);

        assertThat(x[0]).isCloseTo(2, within(1e-9));
        assertThat(x[1]).isZero();
    }

    @Test
    void aColumnOfZerosGetsZeroAndDependentColumnsDoNotBreakIt() {
        double[][] a = {{1, 0, 2}, {2, 0, 4}, {3, 0, 6}};
        double[] b = {2, 4, 6};

        double[] x = NonNegativeLeastSquares.solve(a, b);

        assertThat(x[1]).isZero();
        assertThat(x[0] + 2 * x[2]).isCloseTo(2, within(1e-9));
    }
}

package io.memogate.proxy.calibrate.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.memogate.estimator.mysql.MySqlCoefficients;
import io.memogate.estimator.mysql.OptimizerSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The fit finds the coefficients a server behaving exactly like the model would have, and leaves out what it must. */
class MySqlFitTest {

    private static final MySqlCoefficients SERVER = new MySqlCoefficients(290, 5_000, 2_000, 0.5e-6, 40e-6);
    private final MySqlFit fit = new MySqlFit();

    @Test
    void recoversTheCoefficientsOfAServerThatBehavesLikeTheModel() {
        List<MySqlFit.Observation> observations = new ArrayList<>();
        for (OptimizerCase statement : new MySqlCorpus(OptimizerSettings.MARIADB_DEFAULTS).cases()) {
            MySqlFit.Observation counted = fit.observe(statement, new OptimizerProbe.Measured(0, OptionalLong.of(0)));
            observations.add(fit.observe(statement, new OptimizerProbe.Measured(MySqlFit.seconds(counted, SERVER),
                    OptionalLong.of(Math.round(MySqlFit.bytes(counted, SERVER))))));
        }

        MySqlCoefficients fitted = MySqlFit.fit(observations, MySqlCoefficients.DEFAULTS);

        assertThat(fitted.bytesPerToken()).isCloseTo(290, within(3.0));
        assertThat(fitted.bytesPerTable()).isCloseTo(5_000, within(50.0));
        assertThat(fitted.bytesPerLinkedPair()).isCloseTo(2_000, within(20.0));
        assertThat(fitted.secondsPerPlan()).isCloseTo(0.5e-6, within(0.005e-6));
        assertThat(fitted.secondsPerPrunedCandidate()).isCloseTo(40e-6, within(0.4e-6));
    }

    @Test
    void starsWithoutPruningAndSearchesTooShortToTimeDoNotMoveTheTime() {
        List<MySqlFit.Observation> observations = new ArrayList<>();
        for (OptimizerCase statement : new MySqlCorpus(OptimizerSettings.MARIADB_DEFAULTS).cases()) {
            // a server that searches every statement in 0.5 ms and reports no memory
            observations.add(fit.observe(statement, new OptimizerProbe.Measured(0.0005, OptionalLong.empty())));
        }

        assertThat(MySqlFit.fit(observations, MySqlCoefficients.DEFAULTS)).isEqualTo(MySqlCoefficients.DEFAULTS);
    }
}

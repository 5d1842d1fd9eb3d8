package io.memogate.proxy.calibrate.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.mysql.MySqlCoefficients;
import io.memogate.estimator.mysql.OptimizerSettings;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class MySqlCalibrationTest {

    /**
     * Fitted coefficients that rank the statements' memory backwards: the output says so beside the memory lines,
     * with both figures, and the interval comes with each Spearman figure.
     */
    @Test
    void aFitThatPredictsMemoryWorseThanItsStartIsSaidSo() {
        List<MySqlFit.Observation> observations = statementsMeasuredAsTheDefaultsPredict();
        MySqlCoefficients tablesOnly = new MySqlCoefficients(0, 2_000_000, 0, 0.2e-6, 20e-6, 0.08e-6, 36e-6, 0.11e-6, 0,
                0);

        String printed = print(new MySqlCalibration.Result(observations, List.of(), MySqlCoefficients.DEFAULTS,
                tablesOnly));

        assertThat(printed).contains("memory before: Spearman 1.000 (90% interval 1.000-1.000) over 6 statements;"
                + " 6 of 6 within 2x above 1 MiB")
                .contains("\nwarning: the fitted coefficients predict the optimizer's memory worse than the starting"
                        + " ones (Spearman 1.000 -> -1.000, within 2x 6 -> ");
    }

    @Test
    void aFitAsGoodAsItsStartSaysNothingMore() {
        List<MySqlFit.Observation> observations = statementsMeasuredAsTheDefaultsPredict();

        String printed = print(new MySqlCalibration.Result(observations, List.of(), MySqlCoefficients.DEFAULTS,
                MySqlCoefficients.DEFAULTS));

        assertThat(printed).contains("memory after: Spearman 1.000").doesNotContain("warning");
    }

    /** Six statements of ever more tokens over ever fewer tables, each measured at what the defaults predict. */
    private static List<MySqlFit.Observation> statementsMeasuredAsTheDefaultsPredict() {
        List<MySqlFit.Observation> observations = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            double tokens = 10_000.0 * (i + 1) * (i + 1);
            double tables = 12 - i;
            long bytes = (long) (tokens * MySqlCoefficients.DEFAULTS.bytesPerToken()
                    + tables * MySqlCoefficients.DEFAULTS.bytesPerTable());
            OptimizerCase statement = new OptimizerCase("s" + i, "SELECT 1", OptimizerSettings.MARIADB_DEFAULTS, true);
            observations.add(new MySqlFit.Observation(statement, 0, tokens, tables, 0, 0.001, OptionalLong.of(bytes), 0,
                    0, true, 0, 0, 0));
        }
        return observations;
    }

    private static String print(MySqlCalibration.Result result) {
        StringWriter text = new StringWriter();
        PrintWriter out = new PrintWriter(text);
        MySqlCalibration.print(result, out);
        out.flush();
        return text.toString();
    }
}

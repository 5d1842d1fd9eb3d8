package io.memogate.proxy.calibrate.sqlserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.sqlserver.SqlServerCoefficients;
import io.memogate.estimator.sqlserver.SqlServerDialect;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The fit finds a server's coefficients, task budget included, from the compile memory the server's model
 * gives a corpus of joins, IN lists and batches; with too little to fit it keeps where it started.
 */
class SqlServerFitTest {

    /** A server unlike the defaults: a smaller budget, dearer tables and lists. */
    private static final SqlServerCoefficients SERVER = new SqlServerCoefficients(400_000, 90_000, 40_000, 64, 200,
            2_000, 50_000, 64_000);

    private static String star(int n) {
        return "SELECT f.id FROM f" + IntStream.range(1, n).mapToObj(i -> " JOIN d" + i + " ON d" + i + ".id = f.d" + i)
                .collect(Collectors.joining());
    }

    private static String chain(int n) {
        return "SELECT t0.id FROM t0" + IntStream.range(1, n).mapToObj(i -> " JOIN t" + i + " ON t" + i + ".id = t"
                + (i - 1) + ".next").collect(Collectors.joining());
    }

    private static List<SqlServerFit.Observation> compiles(SqlServerCoefficients server) {
        CompileEstimator estimator = new CompileEstimator(new SqlServerDialect(server));
        List<String> statements = new ArrayList<>();
        for (int n = 2; n <= 14; n++) {
            statements.add(star(n));
            statements.add(chain(n));
        }
        for (int values : new int[] {5_000, 10_000, 20_000}) {
            statements.add("SELECT a.id FROM a JOIN b ON b.id = a.b WHERE a.x IN ("
                    + IntStream.range(0, values).mapToObj(Integer::toString).collect(Collectors.joining(",")) + ")");
        }
        return statements.stream()
                .map(sql -> new SqlServerFit.Observation(sql, estimator.estimate(sql, null).estimatedBytes())).toList();
    }

    @Test
    void findsTheServersBudgetAndItsBytes() {
        SqlServerFit.Fit fit = SqlServerFit.fit(compiles(SERVER), SqlServerCoefficients.DEFAULTS);
        SqlServerCoefficients c = fit.coefficients();
        assertThat(c.exploredPairBudget()).isEqualTo(64);
        assertThat(c.bytesPerExploredPair()).isCloseTo(40_000, org.assertj.core.data.Percentage.withPercentage(5));
        assertThat(c.bytesPerRelation()).isCloseTo(90_000, org.assertj.core.data.Percentage.withPercentage(10));
        assertThat(c.bytesPerListElement()).isCloseTo(2_000, org.assertj.core.data.Percentage.withPercentage(10));
        assertThat(fit.weightedError()).isLessThan(0.05)
                .isLessThan(SqlServerFit.error(compiles(SERVER), SqlServerCoefficients.DEFAULTS));
        // No statement of the corpus is a batch: that weight keeps its starting value.
        assertThat(c.bytesPerOtherStatement()).isEqualTo(SqlServerCoefficients.DEFAULTS.bytesPerOtherStatement());
    }

    @Test
    void twoCompilesAreTooFewToFit() {
        List<SqlServerFit.Observation> two = compiles(SERVER).subList(0, 2);
        assertThat(SqlServerFit.fit(two, SqlServerCoefficients.DEFAULTS).coefficients())
                .isEqualTo(SqlServerCoefficients.DEFAULTS);
    }
}

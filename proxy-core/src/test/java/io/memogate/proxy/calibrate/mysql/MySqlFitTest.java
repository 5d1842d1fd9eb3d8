package io.memogate.proxy.calibrate.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.memogate.estimator.Catalog;
import io.memogate.estimator.mysql.MySqlCoefficients;
import io.memogate.estimator.mysql.OptimizerSettings;
import io.memogate.estimator.mysql.SyntheticJoins;
import io.memogate.estimator.planner.TableStatistics;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The fit finds the coefficients a server behaving exactly like the model would have, and leaves out what it must. */
class MySqlFitTest {

    private static final MySqlCoefficients SERVER = new MySqlCoefficients(290, 5_000, 2_000, 0.5e-6, 40e-6,
            0.08e-6, 36e-6, 0.11e-6, 600, 110);
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
        assertThat(fitted.bytesPerTableSquared()).isCloseTo(600, within(6.0));
        assertThat(fitted.bytesPerEqualityClassCube()).isCloseTo(110, within(1.1));
        assertThat(fitted.secondsPerPlan()).isCloseTo(0.5e-6, within(0.005e-6));
        assertThat(fitted.secondsPerPrunedCandidate()).isCloseTo(40e-6, within(0.4e-6));
    }

    /** Statistics of calibrate's tables as a MariaDB reports them: every dimension's rows, s's index on a. */
    private static Catalog calibrateTables() {
        Map<String, TableStatistics.Table> tables = new HashMap<>();
        List<TableStatistics.Index> fact = new ArrayList<>(List.of(new TableStatistics.Index(List.of("id"), true,
                List.of(200L))));
        for (int i = 1; i <= MySqlCorpus.DIMENSIONS; i++) {
            fact.add(new TableStatistics.Index(List.of("d" + i), false, List.of((long) i + 3)));
            long rows = 20 + 3L * i;
            TableStatistics.Index key = new TableStatistics.Index(List.of("id"), true, List.of(rows));
            tables.put("s" + i, new TableStatistics.Table(rows, 1, List.of(key,
                    new TableStatistics.Index(List.of("a"), false, List.of((long) i + 2)))));
            tables.put(MySqlCorpus.UNINDEXED + i, new TableStatistics.Table(rows, 1, List.of(key)));
        }
        tables.put("f", new TableStatistics.Table(200, 4, fact));
        tables.put("big", new TableStatistics.Table(10_000, 40, List.of(
                new TableStatistics.Index(List.of("id"), true, List.of(10_000L)),
                new TableStatistics.Index(List.of("v"), false, List.of(100L)))));
        return Catalog.of(TableStatistics.of(tables));
    }

    @Test
    void tellsTheTimeOfAKeyLookupFromThatOfAnExtensionOverIndexedAndUnindexedCliques() {
        MySqlCoefficients server = new MySqlCoefficients(290, 5_000, 2_000, 0.5e-6, 40e-6, 0.07e-6, 30e-6, 0.15e-6);
        Catalog catalog = calibrateTables();
        List<MySqlFit.Observation> observations = new ArrayList<>();
        for (OptimizerCase statement : new MySqlCorpus(OptimizerSettings.MARIADB_DEFAULTS).cases()) {
            MySqlFit.Observation counted = fit.observe(statement, new OptimizerProbe.Measured(0, OptionalLong.of(0)),
                    catalog);
            observations.add(fit.observe(statement, new OptimizerProbe.Measured(MySqlFit.seconds(counted, server),
                    OptionalLong.of(Math.round(MySqlFit.bytes(counted, server)))), catalog));
        }
        assertThat(observations).anySatisfy(o -> assertThat(o.keyLookups()).isZero().isNotEqualTo(o.priced()))
                .anySatisfy(o -> assertThat(o.keyLookups()).isPositive());

        MySqlCoefficients fitted = MySqlFit.fit(observations, MySqlCoefficients.DEFAULTS);

        assertThat(fitted.secondsPerPricedExtension()).isCloseTo(0.07e-6, within(0.002e-6));
        assertThat(fitted.secondsPerKeyLookup()).isCloseTo(0.15e-6, within(0.004e-6));
        assertThat(fitted.secondsPerSearchedTable()).isCloseTo(30e-6, within(1e-6));
    }

    @Test
    void anInListTheProxyEstimatesBySizeKeepsItsTermsInTheFit() {
        // 3,000 values: under 16 KiB of text, yet about 0.9 MB by the built-in coefficients, so the proxy estimates
        // it by its size instead of letting it pass
        OptimizerCase list = new OptimizerCase("IN list of 3000", SyntheticJoins.inList(3_000),
                OptimizerSettings.MARIADB_DEFAULTS, true);

        MySqlFit.Observation o = fit.observe(list, new OptimizerProbe.Measured(0.001, OptionalLong.of(900_000)));

        assertThat(o.tokens()).isGreaterThan(6_000);
        assertThat(MySqlFit.bytes(o, MySqlCoefficients.DEFAULTS)).isBetween(450_000.0, 1_800_000.0);
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

package io.memogate.estimator;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.CompileEstimate.Parser;
import io.memogate.estimator.postgres.PlannerSettings;
import org.junit.jupiter.api.Test;

/** The counts behind the estimator's metrics: what an operator reads to size the cache and trust the estimates. */
class EstimatorStatisticsTest {

    private static final String JOIN = "SELECT * FROM a JOIN b ON a.x = b.x JOIN c ON c.y = b.y WHERE a.z = 1";
    /** Babel cannot read a data-modifying CTE: the lexical fallback estimates it. */
    private static final String UNPARSEABLE = "WITH d AS (DELETE FROM x RETURNING *) SELECT * FROM a, b, c WHERE a.x = b.x";

    private final CompileEstimator estimator = new CompileEstimator();

    @Test
    void countsCacheHitsAndMissesPerStatementEstimated() {
        assertThat(estimator.statistics()).isEqualTo(new EstimatorStatistics(0, 0, 0));

        estimator.estimate(JOIN, PlannerSettings.DEFAULTS);
        estimator.estimate(JOIN.replace("1", "2"), PlannerSettings.DEFAULTS); // same fingerprint
        estimator.estimate(JOIN, PlannerSettings.DEFAULTS.with("join_collapse_limit", "20")); // other settings

        assertThat(estimator.statistics()).isEqualTo(new EstimatorStatistics(1, 2, 0));
    }

    /** A bypass is a verdict cached like an estimate: the statements of an OLTP workload are counted too. */
    @Test
    void bypassedStatementsAreCountedLikeEstimates() {
        estimator.estimate("SELECT 1; SELECT * FROM t WHERE id = 3; SET work_mem = '1GB'", PlannerSettings.DEFAULTS);
        estimator.estimate("SELECT 2; SELECT * FROM t WHERE id = 4; SET work_mem = '2GB'", PlannerSettings.DEFAULTS);

        assertThat(estimator.statistics()).isEqualTo(new EstimatorStatistics(3, 3, 0));
    }

    /** The same text again is answered whole from the cache of texts: one hit per statement, as before. */
    @Test
    void aRepeatedTextCountsAHitPerStatement() {
        String two = JOIN + "; " + JOIN.replace("a.z", "c.z");
        estimator.estimate(two, PlannerSettings.DEFAULTS);
        estimator.estimate(two, PlannerSettings.DEFAULTS);

        assertThat(estimator.statistics()).isEqualTo(new EstimatorStatistics(2, 2, 0));
    }

    @Test
    void countsLexicalFallbacksOncePerEstimateComputedNotPerCacheHit() {
        assertThat(estimator.estimate(UNPARSEABLE, PlannerSettings.DEFAULTS).parser()).isEqualTo(Parser.LEXICAL);
        estimator.estimate(UNPARSEABLE, PlannerSettings.DEFAULTS);
        estimator.estimate(JOIN, PlannerSettings.DEFAULTS);

        assertThat(estimator.statistics()).isEqualTo(new EstimatorStatistics(1, 2, 1));
    }
}

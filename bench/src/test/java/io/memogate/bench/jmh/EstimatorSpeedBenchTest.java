package io.memogate.bench.jmh;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.CompileEstimate;
import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.postgres.PlannerSettings;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The benchmark measures what bench/RESULTS.md says it does: no timings here, only the workload. */
class EstimatorSpeedBenchTest {

    @Test
    void everyDecisionSupportStatementIsParsedByCalciteAndJoinsFiveToTwelveRelations() {
        List<String> statements = EstimatorSpeedBench.statements();
        CompileEstimator estimator = new CompileEstimator();
        for (int i = 0; i < statements.size(); i++) {
            String name = EstimatorSpeedBench.NAMES.get(i);
            CompileEstimate e = estimator.estimate(EstimatorSpeedBench.fixed(statements.get(i)),
                    PlannerSettings.DEFAULTS);
            assertThat(e.parser()).as(name + ": " + e.reason()).isEqualTo(CompileEstimate.Parser.CALCITE);
            assertThat(e.bypass()).as(name).isFalse();
            assertThat(e.relations()).as(name + " relation bound").isBetween(6, 40);
            assertThat(e.largestProblem()).as(name + " largest problem").isBetween(2, 12);
        }
    }

    @Test
    void eachCallOfTheUncachedBenchmarkMissesTheCache() {
        EstimatorSpeedBench.Uncached state = new EstimatorSpeedBench.Uncached();
        state.query = "q64";
        state.setUp();
        for (int i = 0; i < 3; i++) {
            state.estimator.estimate(state.next(), PlannerSettings.DEFAULTS);
        }
        assertThat(state.estimator.statistics().cacheHits()).isZero();
        assertThat(state.estimator.statistics().cacheMisses()).isEqualTo(4);
    }

    @Test
    void theCachedPathIsAHitOnAKilobyteStatementAndTheLexerGetsTwoKilobytes() {
        EstimatorSpeedBench bench = new EstimatorSpeedBench();
        bench.setUp(); // throws unless q17 with another literal was a hit
        String first = bench.withNewLiteral();
        assertThat(bench.withNewLiteral()).isNotEqualTo(first);
        assertThat(bench.cachedHit().bypass()).isFalse();
        assertThat(bench.sameTextHit().bypass()).isFalse();
        assertThat(bench.fingerprintHit().bypass()).isFalse();
        assertThat(bench.withNewSpacing()).isNotEqualTo(bench.withNewSpacing());
        List<String> statements = EstimatorSpeedBench.statements();
        assertThat(EstimatorSpeedBench.fixed(statements.get(0)).length()).isBetween(1_000, 1_300);
        assertThat(EstimatorSpeedBench.fixed(statements.get(2)).length()).isBetween(2_000, 2_400);
        assertThat(bench.lexer().statements()).hasSize(1);
    }

    @Test
    void theSixtyTableCliqueComesBackCappedUnderDynamicProgramming() {
        CompileEstimate e = new CompileEstimator().estimate(EstimatorSpeedBench.clique(EstimatorSpeedBench.CLIQUE),
                PlannerSettings.DEFAULTS.with("geqo", "off"));
        assertThat(e.capped()).as(e.reason()).isTrue();
        assertThat(e.search()).isEqualTo(CompileEstimate.Search.DP);
        assertThat(e.largestProblem()).isEqualTo(60);
    }
}

package io.memogate.estimator;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.postgres.PlannerSettings;
import org.junit.jupiter.api.Test;

/** A DO block needs what the largest query of its PL/pgSQL body needs, planned while the block runs. */
class DoBlockEstimateTest {

    private final CompileEstimator estimator = new CompileEstimator();

    private CompileEstimate estimate(String sql) {
        return estimator.estimate(sql, PlannerSettings.DEFAULTS);
    }

    @Test
    void aDoBlockIsItsLargestQuery() {
        String star = Shapes.star(8);
        CompileEstimate alone = estimate(star);
        CompileEstimate block = estimate("DO $$ BEGIN PERFORM 1; " + star + "; INSERT INTO t SELECT 1; END $$");
        assertThat(block.bypass()).isFalse();
        assertThat(block.estimatedBytes()).isEqualTo(alone.estimatedBytes());
        assertThat(block.largestProblem()).isEqualTo(alone.largestProblem());
        assertThat(block.plannedWhileRunning()).isTrue();
        assertThat(alone.plannedWhileRunning()).isFalse();
        assertThat(block.reason()).startsWith("DO block, largest of the 3 queries its body runs: ");
    }

    @Test
    void doBlocksOfOneShapeWithDifferentBodiesAreNotConfused() {
        // Keys and skeletons leave string constants out: two blocks must not share an estimate.
        assertThat(estimate("do $$begin perform 1; end$$").bypass()).isTrue();
        CompileEstimate large = estimate("do $$begin " + Shapes.clique(7) + "; end$$");
        assertThat(large.bypass()).isFalse();
        assertThat(estimate("do $$begin perform 2; end$$").bypass()).isTrue();
        assertThat(estimate("do $$begin " + Shapes.chain(3) + "; end$$").estimatedBytes())
                .isLessThan(large.estimatedBytes());
    }

    @Test
    void quotedBodiesAndLanguageClauses() {
        String chain = Shapes.chain(5).replace("'", "''");
        assertThat(estimate("DO LANGUAGE plpgsql '" + chain + ";'").largestProblem()).isEqualTo(5);
        assertThat(estimate("DO 'begin " + chain + "; end' LANGUAGE 'plpgsql'").largestProblem()).isEqualTo(5);
        CompileEstimate python = estimate("DO LANGUAGE plpython3u $$plpy.execute('" + chain + "')$$");
        assertThat(python.bypass()).isTrue();
        assertThat(python.reason()).contains("language plpython3u");
    }

    @Test
    void blocksWithoutJoinsPassAsBypasses() {
        assertThat(estimate("DO $$BEGIN RAISE NOTICE 'hi'; END$$").reason()).contains("its body runs no query");
        assertThat(estimate("DO $$BEGIN UPDATE t SET a = 1; END$$").reason())
                .contains("none of the 1 queries its body runs has a join search");
        assertThat(estimate("DO").bypass()).isTrue();
        assertThat(estimate("DO $$ unterminated").bypass()).isTrue();
    }

    @Test
    void aDoBlockAmongOtherStatementsCountsAsTheLargest() {
        String sql = "select 1; do $$begin " + Shapes.star(6) + "; end$$; select 2";
        CompileEstimate e = estimate(sql);
        assertThat(e.largestProblem()).isEqualTo(6);
        assertThat(e.plannedWhileRunning()).isTrue();
        assertThat(e.statements()).isEqualTo(3);
    }
}

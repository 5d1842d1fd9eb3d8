package io.memogate.estimator;

import static io.memogate.estimator.Fixture.sql;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The closed-form shapes, written as SQL, through lexer, Calcite, the builder and the planner model:
 * if any step loses or invents a join clause the count moves off the formula. Up to 8 tables fit one
 * problem under PostgreSQL's defaults (from_collapse_limit 8 only splits sub-lists, geqo_threshold 12);
 * up to 12 under the wide settings (collapse limits and geqo_threshold 20).
 */
class ShapeEstimateTest {

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 5, 8})
    void chainUnderDefaults(int n) {
        sql(Shapes.chain(n)).estimates(Shapes.chainPairs(n));
    }

    @ParameterizedTest
    @ValueSource(ints = {3, 5, 8})
    void cycleUnderDefaults(int n) {
        sql(Shapes.cycle(n)).estimates(Shapes.cyclePairs(n));
    }

    @ParameterizedTest
    @ValueSource(ints = {3, 5, 8})
    void starUnderDefaults(int n) {
        sql(Shapes.star(n)).estimates(Shapes.starPairs(n));
    }

    @ParameterizedTest
    @ValueSource(ints = {3, 5, 8})
    void cliqueUnderDefaults(int n) {
        sql(Shapes.clique(n)).estimates(Shapes.cliquePairs(n));
    }

    @ParameterizedTest
    @ValueSource(ints = {10, 12})
    void everyShapeUpTo12UnderWideSettings(int n) {
        sql(Shapes.chain(n)).wide().estimates(Shapes.chainPairs(n));
        sql(Shapes.cycle(n)).wide().estimates(Shapes.cyclePairs(n));
        sql(Shapes.star(n)).wide().estimates(Shapes.starPairs(n));
        sql(Shapes.clique(n)).wide().estimates(Shapes.cliquePairs(n));
    }
}

package io.memogate.estimator.planner;

/**
 * Bytes per unit of each of the {@link MemoryTerms}: what one join pair, relation, block, token, ... costs a
 * server's planner. Each dialect fits its own (PostgreSQL's: {@code postgres.MemoryCoefficients}); the terms
 * are shared, the weights are the server's.
 */
public interface TermCoefficients {

    /**
     * The weights in the order of {@link MemoryTerms#NAMES}, one per term. The vector may end before the last
     * terms, which then cost nothing: PostgreSQL's stops before those only MySQL's greedy search has.
     */
    double[] toArray();
}

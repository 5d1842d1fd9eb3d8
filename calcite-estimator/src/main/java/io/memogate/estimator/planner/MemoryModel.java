package io.memogate.estimator.planner;

import java.util.Objects;

/**
 * The planner memory a statement's join searches need, from their sizes: linear in the join
 * relations they build, since a planner such as PostgreSQL's keeps every join relation and its paths until
 * planning ends (2.6-4.2 kB per csg-cmp pair on PostgreSQL, tables with data). The weights are the
 * dialect's {@link TermCoefficients} (PostgreSQL's, with the fit: {@code postgres.MemoryCoefficients}).
 *
 * <pre>
 *   bytes(statement) = fixedBytes + bytesPerBlock * blocks + bytesPerToken * tokens
 *                      + sum over searches of bytes(search)
 *   bytes(DP)        = perPair * (pairs - cartesianPairs) + bytesPerCartesianPair * cartesianPairs
 *                      + perJoinRelation * joinRelations + bytesPerRelation * relations
 *                      + bytesPerExtraJoinClause * extraJoinClauses
 *                      + bytesPerCrossingSquare * crossingSquares
 *                      + perParameterizedPair * parameterizations
 *                      + bytesPerFastStartSubProblemPair * (first-rows pairs holding a sub-problem's result)
 *   bytes(GEQO)      = perPair * 2 (relations - 1) + perJoinRelation * (relations - 1)
 *                      + bytesPerRelation * relations
 *                      + bytesPerGeqoGene * poolSize * relations
 *   perPair          = bytesPerFastStartJoinPair when the search is planned for its first rows
 *                      (LIMIT, cursors), in the share of its items that are tables, else bytesPerJoinPair;
 *                      perParameterizedPair likewise (parameterized index scans per pair, with a catalog only);
 *                      perJoinRelation is bytesPerJoinRelation in the share planned for all rows, else 0
 *   joinRelations    = the sets of two or more relations the pairs make (each made by one pair or more)
 *   extraJoinClauses = sum over pairs of max(0, equalities linking its sides - 1)
 *   crossingSquares  = sum over pairs of max(0, (equalities linking its sides)^2 - 1)
 * </pre>
 * The clauses crossing a pair are what makes a clique with a clause per edge cost far more per pair than a chain:
 * PostgreSQL tries merge joins per mergejoinable clause of each pair, each with the list of the pair's clauses,
 * and keeps paths per useful pathkey ({@link JoinSearch#crossingSquares()}); PostgreSQL's defaults price them by
 * their square, the extra clauses' own coefficient being 0.
 * {@link MemoryTerms} holds the quantities, so that a calibration can fit the coefficients.
 * Results saturate at {@link Long#MAX_VALUE}; an extrapolated count of 10^28 pairs is simply "more
 * than any server has".
 */
public final class MemoryModel {

    private final TermCoefficients coefficients;

    public MemoryModel(TermCoefficients coefficients) {
        this.coefficients = Objects.requireNonNull(coefficients, "coefficients");
    }

    public TermCoefficients coefficients() {
        return coefficients;
    }

    /** Bytes to plan a statement with this work. */
    public long bytes(PlannerWork work) {
        return bytes(MemoryTerms.of(work));
    }

    /** Bytes for these terms. */
    public long bytes(MemoryTerms terms) {
        return saturate(terms.bytes(coefficients));
    }

    /** Bytes one search adds (without the statement's fixed cost). */
    public long bytes(JoinSearch search) {
        return saturate(MemoryTerms.of(search).bytes(coefficients));
    }

    private static long saturate(double bytes) {
        return bytes >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) Math.ceil(bytes);
    }
}

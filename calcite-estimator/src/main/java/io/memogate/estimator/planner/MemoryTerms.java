package io.memogate.estimator.planner;

/**
 * The quantities {@link MemoryModel} weighs for one statement; its bytes are the dot product with
 * {@link MemoryCoefficients}. Kept apart from the coefficients so that a calibration can fit them
 * ({@code memogate calibrate}) without planning anything twice.
 *
 * @param statements statements planned (each pays {@link MemoryCoefficients#fixedBytes()})
 * @param joinPairs join relations built by searches that keep only the cheapest total-cost paths
 * @param fastStartJoinPairs join relations built by searches planned for their first rows (LIMIT,
 *     FETCH FIRST, cursors), which also keep the paths cheapest to start
 * @param relations items of every search
 * @param geqoGenes GEQO's pool: chromosomes times relations, summed over GEQO searches
 * @param extraJoinClauses join clauses (equivalence classes, other clauses) linking the two sides of a
 *     join relation beyond the first, summed over the join relations of every dynamic-programming
 *     search, planned for all rows or the first ({@link JoinSearch#extraJoinClauses()}); 0 for
 *     tree-shaped join graphs with one clause per edge, and for GEQO
 */
public record MemoryTerms(
        double statements, double joinPairs, double fastStartJoinPairs, double relations, double geqoGenes,
        double extraJoinClauses) {

    /** Nothing planned. */
    public static final MemoryTerms ZERO = new MemoryTerms(0, 0, 0, 0, 0, 0);

    /** The terms of one statement that runs these searches. */
    public static MemoryTerms of(PlannerWork work) {
        double pairs = 0;
        double fastStartPairs = 0;
        double relations = 0;
        double genes = 0;
        double extraClauses = 0;
        for (JoinSearch search : work.searches()) {
            if (search.fastStart()) {
                fastStartPairs += search.joinPairs();
            } else {
                pairs += search.joinPairs();
            }
            relations += search.relations();
            extraClauses += search.extraJoinClauses();
            if (search instanceof JoinSearch.Geqo geqo) {
                genes += (double) geqo.poolSize() * geqo.relations();
            }
        }
        return new MemoryTerms(1, pairs, fastStartPairs, relations, genes, extraClauses);
    }

    /** The terms of one search, without a statement's fixed cost. */
    public static MemoryTerms of(JoinSearch search) {
        MemoryTerms terms = of(new PlannerWork(java.util.List.of(search)));
        return new MemoryTerms(0, terms.joinPairs, terms.fastStartJoinPairs, terms.relations, terms.geqoGenes,
                terms.extraJoinClauses);
    }

    /** Bytes, by these coefficients. */
    public double bytes(MemoryCoefficients c) {
        return c.fixedBytes() * statements + c.bytesPerJoinPair() * joinPairs
                + c.bytesPerFastStartJoinPair() * fastStartJoinPairs + c.bytesPerRelation() * relations
                + c.bytesPerGeqoGene() * geqoGenes + c.bytesPerExtraJoinClause() * extraJoinClauses;
    }

    /** The terms as a vector, in the order of {@link MemoryCoefficients#of(double[])}. */
    public double[] toArray() {
        return new double[] {statements, joinPairs, fastStartJoinPairs, relations, geqoGenes, extraJoinClauses};
    }
}

package io.memogate.estimator.planner;

import java.util.List;

/**
 * The quantities {@link MemoryModel} weighs for one statement; its bytes are the dot product with a
 * server's {@link TermCoefficients} (PostgreSQL's: {@code MemoryCoefficients}). Kept apart from the
 * coefficients so that a calibration can fit them ({@code memogate calibrate}) without planning anything twice.
 *
 * @param statements statements planned (each pays the fixed cost of one)
 * @param joinPairs join relations, linked by a join clause, built by searches that keep only the cheapest
 *     total-cost paths
 * @param fastStartJoinPairs the same for searches planned for their first rows (LIMIT, FETCH FIRST,
 *     cursors), which also keep the paths cheapest to start: their linked pairs times the share of their
 *     items that are not single-path scans ({@link JoinSearch#singlePathItems()}), the rest counted in
 *     {@code joinPairs}
 * @param relations items of every search
 * @param geqoGenes GEQO's pool: chromosomes times relations, summed over GEQO searches
 * @param extraJoinClauses join clauses (equivalence classes, other equalities) linking the two sides of a
 *     join relation beyond the first, summed over the join relations of every dynamic-programming
 *     search, planned for all rows or the first ({@link JoinSearch#extraJoinClauses()}); 0 for
 *     tree-shaped join graphs with one clause per edge, and for GEQO
 * @param cartesianPairs join relations that no clause links (Cartesian products), in any search; not
 *     among {@code joinPairs} or {@code fastStartJoinPairs}
 * @param blocks query blocks planned ({@link PlannerWork#blocks()})
 * @param tokens tokens of the statement's text ({@link PlannerWork#tokens()})
 * @param parameterizations parameterized path families from index scans, counted per pair
 *     ({@link JoinSearch#parameterizations()}), in searches planned for all rows, and in the share of a
 *     first-rows search that {@code joinPairs} takes; 0 without a catalog
 * @param fastStartParameterizations the same in the first-rows share of searches planned for their first
 *     rows (as {@code fastStartJoinPairs})
 * @param fastStartSubProblemPairs of the first-rows pairs, those whose join relation holds a sub-problem's
 *     result ({@link JoinSearch#subProblemPairs()}), counted again: they cost more than their
 *     {@code fastStartJoinPairs} share says; nothing for searches planned for all rows, where they do not
 * @param setOperationBranches leaves of set operations ({@link PlannerWork#setOperationBranches()})
 * @param listElements constants of IN and ARRAY lists ({@link PlannerWork#listElements()}), not among
 *     {@code tokens}
 * @param valueRows rows of VALUES lists of constants ({@link PlannerWork#valueRows()})
 * @param valueCells constants of VALUES rows ({@link PlannerWork#valueCells()}), not among {@code tokens}
 * @param otherStatements the other statements of the text the statement came in, when it is the largest of
 *     several: PostgreSQL parses a simple query's whole text before it plans the first statement and keeps
 *     every statement's parse tree until the last is done (exec_simple_query), so a text of 10,000 short
 *     statements holds about 13 MB while it plans each (measured as the backend's peak resident memory; the
 *     planner's own memory is freed between statements)
 * @param partitions child relations of partitioned tables ({@link PlannerWork#partitions()})
 * @param partitionwisePairs child joins of partitionwise joins ({@link PlannerWork#partitionwisePairs()})
 * @param copiedJoinRelations relations beneath the JOINs of blocks planned from a copy of their query tree, and
 *     weighted, of those each pulled-up sub-select rewrites ({@link PlannerWork#copiedJoinRelations()})
 * @param partitionwiseGroupings child grouping relations of partitionwise aggregation
 *     ({@link PlannerWork#partitionwiseGroupings()})
 * @param crossingSquares over the join relations of every dynamic-programming search, the square of the join
 *     clauses linking their sides less one ({@link JoinSearch#crossingSquares()}): 0 where
 *     {@code extraJoinClauses} is, and growing with the square of a pair's clauses where it grows linearly
 * @param joinRelations the join relations {@code joinPairs} make ({@link JoinSearch#joinRelations()}): each pair
 *     after a relation's first adds its paths to a relation that exists already
 * @param relationSquares the square of each greedy search's tables ({@link JoinSearch.Greedy}), summed: MariaDB's
 *     optimizer keeps per table arrays as long as the join (a cross join of 48 tables took 0.94 MB, of 24 0.30 MB)
 * @param equalityClassCubes the greedy searches' {@link JoinSearch.Greedy#equalityClassCubes()}, summed
 */
public record MemoryTerms(
        double statements, double joinPairs, double fastStartJoinPairs, double relations, double geqoGenes,
        double extraJoinClauses, double cartesianPairs, double blocks, double tokens, double parameterizations,
        double fastStartParameterizations, double fastStartSubProblemPairs, double setOperationBranches,
        double listElements, double valueRows, double valueCells, double otherStatements, double partitions,
        double partitionwisePairs, double copiedJoinRelations, double partitionwiseGroupings, double crossingSquares,
        double joinRelations, double relationSquares, double equalityClassCubes) {

    /** The terms' names, in the order of {@link #toArray()} (and of a {@link TermCoefficients}' vector). */
    public static final List<String> NAMES = List.of("statements", "joinPairs", "fastStartJoinPairs", "relations",
            "geqoGenes", "extraJoinClauses", "cartesianPairs", "blocks", "tokens", "parameterizations",
            "fastStartParameterizations", "fastStartSubProblemPairs", "setOperationBranches", "listElements",
            "valueRows", "valueCells", "otherStatements", "partitions",
            "partitionwisePairs", "copiedJoinRelations", "partitionwiseGroupings", "crossingSquares", "joinRelations",
            "relationSquares", "equalityClassCubes");

    /** Nothing planned. */
    public static final MemoryTerms ZERO = new MemoryTerms(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

    /** The terms of one statement that does this work. */
    public static MemoryTerms of(PlannerWork work) {
        MemoryTerms searches = of(work.searches());
        return new MemoryTerms(1, searches.joinPairs, searches.fastStartJoinPairs, searches.relations,
                searches.geqoGenes, searches.extraJoinClauses, searches.cartesianPairs, work.blocks(), work.tokens(),
                searches.parameterizations, searches.fastStartParameterizations, searches.fastStartSubProblemPairs,
                work.setOperationBranches(), work.listElements(), work.valueRows(), work.valueCells(), 0,
                work.partitions(), work.partitionwisePairs(), work.copiedJoinRelations(), work.partitionwiseGroupings(),
                searches.crossingSquares, searches.joinRelations, searches.relationSquares, searches.equalityClassCubes);
    }

    /** The terms of one search, without a statement's fixed cost, blocks or tokens. */
    public static MemoryTerms of(JoinSearch search) {
        return of(List.of(search));
    }

    private static MemoryTerms of(List<JoinSearch> searches) {
        double pairs = 0;
        double fastStartPairs = 0;
        double relations = 0;
        double genes = 0;
        double extraClauses = 0;
        double squares = 0;
        double cartesian = 0;
        double parameterizations = 0;
        double fastStartParameterizations = 0;
        double fastStartSubProblemPairs = 0;
        double relationSquares = 0;
        double classCubes = 0;
        double joinRelations = 0;
        for (JoinSearch search : searches) {
            double linked = search.joinPairs() - search.cartesianPairs();
            // First-rows pairs in the share of the problem's items that have paths to choose from.
            double firstRowsShare = search.fastStart()
                    ? (double) (search.relations() - search.singlePathItems()) / search.relations() : 0;
            fastStartPairs += linked * firstRowsShare;
            pairs += linked * (1 - firstRowsShare);
            joinRelations += search.joinRelations() * (1 - firstRowsShare);
            fastStartParameterizations += search.parameterizations() * firstRowsShare;
            parameterizations += search.parameterizations() * (1 - firstRowsShare);
            fastStartSubProblemPairs += search.subProblemPairs() * firstRowsShare;
            cartesian += search.cartesianPairs();
            relations += search.relations();
            extraClauses += search.extraJoinClauses();
            squares += search.crossingSquares();
            if (search instanceof JoinSearch.Geqo geqo) {
                genes += (double) geqo.poolSize() * geqo.relations();
            }
            if (search instanceof JoinSearch.Greedy greedy) {
                relationSquares += (double) greedy.relations() * greedy.relations();
                classCubes += greedy.equalityClassCubes();
            }
        }
        return new MemoryTerms(0, pairs, fastStartPairs, relations, genes, extraClauses, cartesian, 0, 0,
                parameterizations, fastStartParameterizations, fastStartSubProblemPairs, 0, 0, 0, 0, 0, 0, 0, 0, 0, squares,
                joinRelations, relationSquares, classCubes);
    }

    /** These terms, for a statement planned while {@code count} other statements of its text are held. */
    public MemoryTerms withOtherStatements(int count) {
        return new MemoryTerms(statements, joinPairs, fastStartJoinPairs, relations, geqoGenes, extraJoinClauses,
                cartesianPairs, blocks, tokens, parameterizations, fastStartParameterizations, fastStartSubProblemPairs,
                setOperationBranches, listElements, valueRows, valueCells, count, partitions, partitionwisePairs,
                copiedJoinRelations, partitionwiseGroupings, crossingSquares, joinRelations, relationSquares,
                equalityClassCubes);
    }

    /** Bytes, by these coefficients; the terms past the end of their vector cost nothing. */
    public double bytes(TermCoefficients c) {
        double[] terms = toArray();
        double[] coefficients = c.toArray();
        if (coefficients.length > terms.length) {
            throw new IllegalArgumentException("coefficients for " + coefficients.length + " terms, there are "
                    + terms.length + " " + NAMES);
        }
        double bytes = 0;
        for (int j = 0; j < coefficients.length; j++) {
            bytes += coefficients[j] * terms[j];
        }
        return bytes;
    }

    /** The terms of a vector in the order of {@link #NAMES}, as {@link #toArray()} gives it. */
    public static MemoryTerms of(double[] v) {
        if (v.length != NAMES.size()) {
            throw new IllegalArgumentException("memory terms are " + NAMES.size() + " values " + NAMES + ", got "
                    + v.length);
        }
        return new MemoryTerms(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11], v[12], v[13],
                v[14], v[15], v[16], v[17], v[18], v[19], v[20], v[21], v[22], v[23], v[24]);
    }

    /** The terms as a vector, in the order of {@link #NAMES}. */
    public double[] toArray() {
        return new double[] {statements, joinPairs, fastStartJoinPairs, relations, geqoGenes, extraJoinClauses,
            cartesianPairs, blocks, tokens, parameterizations, fastStartParameterizations, fastStartSubProblemPairs,
            setOperationBranches, listElements, valueRows, valueCells, otherStatements, partitions, partitionwisePairs,
            copiedJoinRelations, partitionwiseGroupings, crossingSquares, joinRelations, relationSquares,
            equalityClassCubes};
    }
}

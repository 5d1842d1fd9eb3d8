package io.memogate.estimator.postgres;

import io.memogate.estimator.planner.IndexedColumns;
import io.memogate.estimator.planner.JoinSearch;
import io.memogate.estimator.planner.MemoryModel;
import io.memogate.estimator.planner.MemoryTerms;
import io.memogate.estimator.planner.TermCoefficients;
import java.util.List;

/**
 * The coefficients of PostgreSQL's {@link MemoryModel}, in bytes: what one unit of each of the planner's
 * {@link MemoryTerms} costs PostgreSQL's planner; {@code memogate calibrate} fits them to a given server and
 * schema.
 *
 * <p><b>Defaults</b> ({@link #DEFAULTS}): chosen on PostgreSQL 18.6 against {@code EXPLAIN (SUMMARY,
 * MEMORY)} "used" figures over tables that hold data (`memogate bench accuracy`, bench/log/accuracy.md,
 * "Estimator accuracy"): synthetic chains, cycles, stars, cliques and snowflakes of 2,000-row tables,
 * TPC-H and TPC-DS at scale 0.01 and the demo warehouse's reports, under default and wide planner
 * settings, 342 measured statements. Fitted by least squares on the logarithm of estimate over measured
 * (non-negative coefficients, the GEQO gene's fixed) over the statements of 256 kB and more, those above
 * 1 MiB weighted three times, then rounded: 8 kB a statement, 24 kB a query block, 400 bytes a token,
 * 3.2 kB a join pair (the default now takes 1.5 kB and 7 kB a join relation, below), 12 kB a first-rows join
 * pair, 0.4 kB a Cartesian pair (the default takes 1.4 kB,
 * for the reason given at {@code bytesPerCartesianPair}), 10 kB a relation of a
 * search, 2.3 kB an extra join clause (since replaced by {@code bytesPerCrossingSquare}, below). Per join pair, tables with data cost 2.6-4.2 kB (empty tables
 * 1.9-2.3 kB: their paths all cost alike, so fewer survive). Blocks and tokens carry what does not grow
 * with joins: each {@code subquery_planner} call's own state and upper paths, and the expression trees
 * (TPC-DS q66's 1,358 tokens of {@code sum(CASE ...)} over 64 pairs used 1.0 MiB). First-rows pairs vary
 * most with the schema: 1-5 kB on TPC-DS (no foreign-key indexes), 7-11 kB on the synthetic tables,
 * 16-55 kB on the warehouse; most of it is Memoize paths, one per parameterized inner path a nested loop
 * tries (bench/log/accuracy.md, "Where first-rows planning spends its memory"). 12 kB balances these; the
 * catalog's indexes ({@link IndexedColumns}) and a split search's sub-problems add their own terms below;
 * the warehouse's 13-table star with LIMIT under wide settings is still at 0.43 (run 11), and what is left
 * is what a calibration on one's own queries is for. Dense join graphs whose every edge is its own
 * equivalence class cost more per pair on tables with data: {@code bytesPerCrossingSquare} below.
 *
 * <p><b>Join relations apart from pairs</b> ({@code bytesPerJoinRelation}): the 3.2 kB a pair above priced a join
 * relation made many ways (a cycle's or a clique's, by a pair per split) like one made once. PostgreSQL creates a
 * relation at the first pair that makes it and only adds paths to it at the others ({@code build_join_rel} finds
 * it), so the pairs a cycle adds cost less than the tree's: removing the clauses that close the random corpus's
 * cycles took 2.1 kB per pair lost and 0.34 kB per crossing square (least squares over 85 statements of seeds 1 and
 * 2, PostgreSQL 18.6), where the model priced 3.2 kB and 0.33 kB. With join relations counted
 * ({@link MemoryTerms#joinRelations()}), 1.5 kB a pair and 7 kB a join relation keep the Spearman of every corpus
 * above 1 MiB as high as before or higher, under both settings, and raise the random corpus's default cells
 * (seed 1: 0.898 to 0.961 with the catalog, 0.927 to 0.979 from the SQL alone; seed 3, not used to choose them:
 * 0.903 to 0.922 and 0.918 to 0.948) and TPC-DS's (0.827 to 0.864; bench/log/accuracy.md, "Join relations priced
 * apart from their pairs"). Least squares alone puts them at 2.1 and 1.8 kB, which fits small trees better (a
 * chain of 10 estimated at 1.02x of its memory against 1.27x) and ranks TPC-DS and the random corpus worse. The
 * 7 kB follows the statements the gateways are for, above 1 MiB; small chains are estimated higher with it (the
 * random corpus's statements under 1 MiB at a median 1.41x, 1.26x before).
 *
 * <p>{@link #EMPTY_TABLES_PG17} is the earlier fit to PostgreSQL 17.5 over 4-16 empty tables
 * (docs/DESIGN.md, "Why it matters"): weighted least squares of {@code planner_used_kB} on
 * {@code ccp_pairs} over all 23 rows, each weighted by 1/measured, {@code 50.0 kB + 2.294 kB per pair},
 * predicted/measured between 0.83 and 1.09.
 *
 * <p>{@code bytesPerExtraJoinClause} is fitted to PostgreSQL 18 with tables that hold data (2,000 rows
 * each, analyzed, with primary keys), planned with the collapse limits and geqo_threshold at 20 so
 * that every search is dynamic programming: cliques of 5 to 10 tables joined by
 * {@code ti.cj = tj.ci}, a column pair and so an equivalence class per edge, used 0.57, 2.59, 11.98,
 * 53.96, 237.3 and 1019.9 MB (10^6 bytes) for 90 to 28,501 pairs and 180 to 266,744 extra
 * clauses ({@code n(n-1)3^(n-2)/2} crossings less the pairs). Weighted least squares on relative
 * error (each row weighted by 1/measured, as above) of {@code used} less the other defaults' terms
 * of the time (20 kB, 3.2 kB a pair, 20 kB a relation) on the extra clauses gave {@code 2.1 kB per extra
 * clause}: predicted/measured 1.42, 1.20, 1.02, 0.88, 0.76, 0.65 from 5 to 10 tables (2.3 kB in the
 * fit of all corpora above). Within 2x, but the trend is
 * plain: the memory grows about 4.4-fold per table where the extra clauses grow {@code 3n/(n-2)}-fold,
 * so larger cliques come out lower still.
 *
 * <p>{@code bytesPerCrossingSquare} replaces it (the default takes 0 per extra clause): per pair, the square of the
 * clauses crossing it less one (PostgreSQL tries a merge join per clause, each with a list of all the clauses).
 * Fitted on what the clauses alone add, PostgreSQL 18.6, 2,000-row tables of 18 columns with primary keys,
 * analyzed, limits at 20: cliques of 5 to 8 tables with a class per edge against the same cliques on one class
 * (the same pairs, each crossed once: 269, 768, 2,257 and 6,781 kB against 552, 2,526, 11,707 and 52,798 kB),
 * 282-301 bytes a square; chains of 6, 8 and 10 tables with 2, 3, 4 and 6 equalities per edge, each its own class,
 * against one per edge, less the added tokens at 400 bytes, 290-511 bytes (CrossingSquaresEstimateTest). Weighted
 * least squares of the added memory on the added squares over those 16 rows, each weighted by 1/measured, gave
 * 327 bytes; 330. Fitted instead on the cliques' whole memory less the other defaults' terms it was 253 bytes, since
 * those terms overestimated the cliques on one class (9.7 MB of pairs for clique 8's 6.8 MB; with join relations
 * priced apart, 271 bytes). At 330 the cliques of 5-10 tables of the accuracy run were estimated within 1.17-1.28x
 * (1.09-1.25x with join relations priced apart), where one cost per extra
 * clause gave 1.49 down to 0.71; and a pair of two crossings, the random corpus's commonest, costs 0.99 kB more
 * than a single clause's where it cost 2.3 kB (that corpus alone fitted 0.6 kB an extra clause): its Spearman under
 * default settings went from 0.81 to 0.88 (bench/log/accuracy.md, "Crossing clauses by their square"). What calibrate fits with a catalog of its own stays free to use either term.
 *
 * @param fixedBytes what planning any statement costs (the floor of small queries)
 * @param bytesPerJoinPair the paths one csg-cmp pair of a DP search adds to its join relation
 * @param bytesPerFastStartJoinPair the same in a search planned for its first rows (a LIMIT, FETCH
 *     FIRST or cursor gives PostgreSQL a tuple fraction below 1, and {@code add_path} then also keeps
 *     every path that is cheaper to start, which on tables with data and indexes multiplies the paths
 *     per join relation); empty tables show no such growth, since all their paths cost alike
 * @param bytesPerRelation per item of a join search problem
 * @param bytesPerGeqoGene GEQO's pool: per chromosome (pool member) and relation. The default, 16, is
 *     a rough figure from the allocations in geqo_pool.c ({@code (relations + 1) * sizeof(Gene)} per
 *     chromosome, rounded up to a power of two with a chunk header, plus the pool array) and has not
 *     been measured; calibrate it where GEQO matters
 * @param bytesPerExtraJoinClause per join clause linking the two sides of a join relation beyond the
 *     first ({@link MemoryTerms#extraJoinClauses()}): each is one more merge-join ordering and pathkey
 *     PostgreSQL tries and keeps paths for. 0 by default: {@code bytesPerCrossingSquare} prices the same clauses
 *     by their square, which fits both cliques and pairs of two crossings (see above); coefficient files fitted
 *     before it keep theirs
 * @param bytesPerCartesianPair a join relation that no clause links: only nested loops join it, so it keeps
 *     few paths. TPC-DS q28 and q88 cross-join single-row aggregates (0.4-1.5 kB a pair); tables whose join
 *     columns all equal one constant have no join clause left and cost 1.0-1.8 kB a pair, more as the join
 *     grows (5-9 tables joined USING (id) WHERE t0.id = 5, PostgreSQL 18.6, with and without data). The
 *     default, 1.4 kB, keeps both within 2x
 * @param bytesPerBlock per query block planned ({@code subquery_planner} call): its planner state, base
 *     relations and upper-level paths (grouping, sorting, set operations)
 * @param bytesPerToken per token of the statement's text: the parse tree, the rewritten query and the
 *     planner's copies of its expressions
 * @param bytesPerParameterizedPair per parameterized path family a pair builds join paths for: over the
 *     pairs, the relations outside the pair's join relation that an index scan inside it can take as a
 *     parameter and PostgreSQL keeps join paths for ({@link JoinSearch#parameterizations()}; counted only when a
 *     catalog is given). From stars
 *     of 8 and 10 tables of 2,000 rows on PostgreSQL 18.6 whose hub was indexed on its join columns
 *     (bench/log/accuracy.md, "How much the indexes on join columns add"): the memory added over the
 *     parameterized pairs added, 0.80-0.91 kB; per join relation instead it was 2.7-3.2 kB and grew with
 *     the star, since every pair that makes a relation builds its parameterized paths again
 * @param bytesPerFastStartParameterizedPair the same in a search planned for its first rows: 4.6-4.8 kB there,
 *     and 5.1 and 5.6 kB for stars of 12 and 14 tables (Memoize paths, one per parameterized inner path
 *     a nested loop tries, are most of it: see bench/log/accuracy.md, "Where first-rows planning spends its
 *     memory")
 * @param bytesPerFastStartSubProblemPair a first-rows pair whose join relation holds a sub-problem's result
 *     (the collapse limits left part of the join whole and planned it first: {@link JoinSearch#subProblemPairs()}),
 *     on top of its first-rows pair: that finished relation brings every path its search kept, and each is
 *     tried as a nested loop's outer with a Memoize path per parameterized inner. The demo warehouse's t08
 *     needed 20.3 MB planned as written and 10.1 MB with its JOINs reordered so that the second search
 *     holds 207 fewer such pairs (about 50 kB each, after the other terms); a least-squares fit over the
 *     accuracy corpora gave 29 kB. 40 kB, between the two
 * @param bytesPerSetOperationBranch a branch of a UNION, INTERSECT or EXCEPT, in place of a query block: UNION
 *     ALL of 500 and 2,000 one-table branches used 15.6 and 15.7 kB a branch on PostgreSQL 18 and UNION of
 *     500 15.3 kB, of which their 12 tokens take 4.8 kB
 * @param bytesPerListElement a constant of an IN or ARRAY list of constants, or of an array literal given to
 *     {@code = ANY}: IN lists of 10,000 and 100,000 integers over a 100,000-row table used 335 bytes a
 *     constant, of strings 347, {@code = ANY('{...}')} 250
 * @param bytesPerValueRow a row of a VALUES list of constants, and {@code bytesPerValueCell} each of its
 *     constants: 10,000 rows of 1, 2 and 4 columns used 317, 484 and 795 bytes a row as a FROM item, 158, 230
 *     and 374 in INSERT ... VALUES; 130 bytes each puts both within 2x
 * @param bytesPerOtherStatement each other statement of a text of several, held parsed while the largest is
 *     planned: texts of 3,000, 10,000 and 30,000 one-table SELECTs raised a backend's peak resident memory by
 *     1.25-1.4 kB a statement (EXPLAIN cannot show it: the planner's own memory is freed between statements)
 * @param bytesPerPartition a child relation of a partitioned table: joins of 2 to 8 hash-partitioned tables
 *     of 16 to 1,024 partitions used 4.0-4.2 kB a partition besides their join pairs
 * @param bytesPerPartitionwisePair a child join of a partitionwise join: the same joins with
 *     enable_partitionwise_join used 6.8 kB a child pair for 2 tables, 5.5 for 3, 4.8 for 4, 4.0 for 6 and
 *     3.8 for 8 (a join relation's children are built once, its pairs' paths each time)
 * @param bytesPerCopiedJoinRelation a relation beneath a JOIN of a block planned from a copy of its query tree
 *     ({@link MemoryTerms#copiedJoinRelations()}): the same chain of 2, 4, 6 and 8 tables of 18 columns joined
 *     with JOIN ... ON, planned as a FROM sub-select that is not pulled up rather than as the statement, used
 *     18, 43, 78 and 126 kB more on PostgreSQL 18.6, with 2, 9, 20 and 35 relations beneath its JOINs: about
 *     10 kB a block (in {@code bytesPerBlock}) and 3.3 kB each, whatever the join graph (a star of 6 and 8
 *     tables added 77 and 126 kB). It is the JOINs' range-table entries, which list every column of both sides,
 *     so it grows with the tables' columns; without a catalog they are not known, and the figure is taken for
 *     18 columns
 * @param bytesPerPartitionwiseGrouping a child grouping relation of partitionwise aggregation
 *     ({@link MemoryTerms#partitionwiseGroupings()}): one table of 16-1,024 hash partitions grouped with
 *     enable_partitionwise_aggregate used 3.8-3.9 kB more a partition for {@code count(*)} alone, 5.6-5.7 kB
 *     grouped by another column and 6.8-6.9 kB grouped by the key (7.8 kB with two aggregates), and two such
 *     tables joined partitionwise 3.9-6.3 kB (PostgreSQL 18.6); 5.5 kB keeps each within 1.5x
 * @param bytesPerCrossingSquare per join relation, the square of the join clauses linking its sides less one
 *     ({@link MemoryTerms#crossingSquares()}): each clause leads a merge join of its own carrying the list of the
 *     pair's clauses. 330 bytes, fitted on cliques and chains with several clauses per edge (see above)
 * @param bytesPerJoinRelation a join relation the pairs of a DP search make ({@link MemoryTerms#joinRelations()}),
 *     created by the first pair that makes it ({@code build_join_rel}, src/backend/optimizer/util/relnode.c): 7 kB,
 *     with 1.5 kB a pair (see "Join relations apart from pairs" above); 0 in a file fitted before it
 */
public record MemoryCoefficients(
        double fixedBytes, double bytesPerJoinPair, double bytesPerFastStartJoinPair, double bytesPerRelation,
        double bytesPerGeqoGene, double bytesPerExtraJoinClause, double bytesPerCartesianPair, double bytesPerBlock,
        double bytesPerToken, double bytesPerParameterizedPair, double bytesPerFastStartParameterizedPair,
        double bytesPerFastStartSubProblemPair, double bytesPerSetOperationBranch, double bytesPerListElement,
        double bytesPerValueRow, double bytesPerValueCell, double bytesPerOtherStatement, double bytesPerPartition,
        double bytesPerPartitionwisePair, double bytesPerCopiedJoinRelation, double bytesPerPartitionwiseGrouping,
        double bytesPerCrossingSquare, double bytesPerJoinRelation)
        implements TermCoefficients {

    /**
     * The names of the coefficients, in the order of {@link #toArray()} and of {@link MemoryTerms#toArray()}'s first
     * terms (the greedy search's after them cost PostgreSQL nothing).
     */
    public static final List<String> NAMES = List.of(
            "fixedBytes", "bytesPerJoinPair", "bytesPerFastStartJoinPair", "bytesPerRelation", "bytesPerGeqoGene",
            "bytesPerExtraJoinClause", "bytesPerCartesianPair", "bytesPerBlock", "bytesPerToken",
            "bytesPerParameterizedPair", "bytesPerFastStartParameterizedPair", "bytesPerFastStartSubProblemPair",
            "bytesPerSetOperationBranch", "bytesPerListElement", "bytesPerValueRow",
            "bytesPerValueCell", "bytesPerOtherStatement", "bytesPerPartition", "bytesPerPartitionwisePair",
            "bytesPerCopiedJoinRelation", "bytesPerPartitionwiseGrouping", "bytesPerCrossingSquare",
            "bytesPerJoinRelation");

    private static final double BRANCH = 10.5 * 1024;
    private static final double LIST_ELEMENT = 330;
    private static final double VALUE_ROW = 130;
    private static final double VALUE_CELL = 130;
    private static final double OTHER_STATEMENT = 1.3 * 1024;
    private static final double PARTITION = 4.0 * 1024;
    private static final double PARTITIONWISE_PAIR = 4.4 * 1024;
    private static final double COPIED_JOIN_RELATION = 3.3 * 1024;
    private static final double PARTITIONWISE_GROUPING = 5.5 * 1024;
    private static final double CROSSING_SQUARE = 330;
    private static final double JOIN_RELATION = 7.0 * 1024;

    public static final MemoryCoefficients DEFAULTS =
            new MemoryCoefficients(8.0 * 1024, 1.5 * 1024, 12.0 * 1024, 10.0 * 1024, 16, 0, 1.4 * 1024, 24.0 * 1024,
                    400, 0.85 * 1024, 5.0 * 1024, 40.0 * 1024, BRANCH, LIST_ELEMENT, VALUE_ROW,
                    VALUE_CELL, OTHER_STATEMENT, PARTITION, PARTITIONWISE_PAIR, COPIED_JOIN_RELATION,
                    PARTITIONWISE_GROUPING, CROSSING_SQUARE, JOIN_RELATION);

    /**
     * The fit to PostgreSQL 17.5 over empty tables (see above): first-rows pairs cost alike there, and
     * extra join clauses add nothing, all merge-join paths costing alike.
     */
    public static final MemoryCoefficients EMPTY_TABLES_PG17 =
            new MemoryCoefficients(50.0 * 1024, 2.294 * 1024, 2.294 * 1024, 0, 16, 0, 2.294 * 1024, 0, 0, 0, 0, 0,
                    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

    public MemoryCoefficients {
        check("fixedBytes", fixedBytes);
        check("bytesPerJoinPair", bytesPerJoinPair);
        check("bytesPerFastStartJoinPair", bytesPerFastStartJoinPair);
        check("bytesPerRelation", bytesPerRelation);
        check("bytesPerGeqoGene", bytesPerGeqoGene);
        check("bytesPerExtraJoinClause", bytesPerExtraJoinClause);
        check("bytesPerCartesianPair", bytesPerCartesianPair);
        check("bytesPerBlock", bytesPerBlock);
        check("bytesPerToken", bytesPerToken);
        check("bytesPerParameterizedPair", bytesPerParameterizedPair);
        check("bytesPerFastStartParameterizedPair", bytesPerFastStartParameterizedPair);
        check("bytesPerFastStartSubProblemPair", bytesPerFastStartSubProblemPair);
        check("bytesPerSetOperationBranch", bytesPerSetOperationBranch);
        check("bytesPerListElement", bytesPerListElement);
        check("bytesPerValueRow", bytesPerValueRow);
        check("bytesPerValueCell", bytesPerValueCell);
        check("bytesPerOtherStatement", bytesPerOtherStatement);
        check("bytesPerPartition", bytesPerPartition);
        check("bytesPerPartitionwisePair", bytesPerPartitionwisePair);
        check("bytesPerCopiedJoinRelation", bytesPerCopiedJoinRelation);
        check("bytesPerPartitionwiseGrouping", bytesPerPartitionwiseGrouping);
        check("bytesPerCrossingSquare", bytesPerCrossingSquare);
        check("bytesPerJoinRelation", bytesPerJoinRelation);
    }

    /** From a vector in the order of {@link #NAMES}. */
    public static MemoryCoefficients of(double[] values) {
        if (values.length != NAMES.size()) {
            throw new IllegalArgumentException("expected " + NAMES.size() + " coefficients, got " + values.length);
        }
        return new MemoryCoefficients(values[0], values[1], values[2], values[3], values[4], values[5], values[6],
                values[7], values[8], values[9], values[10], values[11], values[12], values[13], values[14],
                values[15], values[16], values[17], values[18], values[19], values[20], values[21], values[22]);
    }

    @Override
    public double[] toArray() {
        return new double[] {fixedBytes, bytesPerJoinPair, bytesPerFastStartJoinPair, bytesPerRelation,
            bytesPerGeqoGene, bytesPerExtraJoinClause, bytesPerCartesianPair, bytesPerBlock, bytesPerToken,
            bytesPerParameterizedPair, bytesPerFastStartParameterizedPair, bytesPerFastStartSubProblemPair,
            bytesPerSetOperationBranch, bytesPerListElement, bytesPerValueRow, bytesPerValueCell,
            bytesPerOtherStatement, bytesPerPartition, bytesPerPartitionwisePair, bytesPerCopiedJoinRelation,
            bytesPerPartitionwiseGrouping, bytesPerCrossingSquare, bytesPerJoinRelation};
    }

    private static void check(String field, double value) {
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(field + " must be finite and >= 0, was " + value);
        }
    }
}

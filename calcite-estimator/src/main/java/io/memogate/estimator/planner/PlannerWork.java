package io.memogate.estimator.planner;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * What PostgreSQL does to plan one statement: every join search (the problems of each query block, its
 * sub-problems and separately planned sub-selects), the query blocks themselves, and the size of the
 * expressions it reads. The planner keeps what each built until planning ends, so the statement's
 * memory grows with the sum; the largest problem is what to bound first.
 *
 * @param searches the join searches
 * @param blocks query blocks planned ({@code subquery_planner} calls), 0 when not counted; each has its
 *     own planner state, base relations and upper-level paths (grouping, sorting) whatever it joins
 * @param tokens tokens of the statement's text outside its lists of constants, 0 when not counted: the parse
 *     tree, the rewritten query and the planner's copies of its expressions grow with them
 * @param setOperationBranches leaves of the statement's UNION, INTERSECT and EXCEPT trees, which are not
 *     among {@code blocks}: PostgreSQL pulls the branches of a UNION ALL up into an append relation and
 *     plans each other branch with its own {@code subquery_planner} call, and either costs it about half of
 *     what a block with grouping and sorting does
 * @param listElements constants in {@code IN} and {@code ARRAY} lists of constants: each is copied,
 *     folded into an array constant and estimated by {@code scalararraysel} element by element
 * @param valueRows rows of {@code VALUES} lists of constants: each is a list the planner copies and walks
 * @param valueCells constants in those rows
 * @param partitions child relations of partitioned tables: each partition a scan of a partitioned table plans
 *     is a relation with its own paths (0 without a catalog that knows the partitions)
 * @param partitionwisePairs child joins of partitionwise joins: for each join pair of two relations partitioned
 *     alike, one per partition ({@code try_partitionwise_join}); 0 unless the setting allows them
 * @param copiedJoinRelations over the blocks PostgreSQL plans from a copy of their query tree, the relations
 *     beneath each JOIN they write: every block but the statement's own is copied before it is planned
 *     ({@code set_subquery_pathlist}, {@code make_subplan}, {@code SS_process_ctes}, {@code pull_up_simple_subquery},
 *     {@code convert_EXISTS_sublink_to_join}), and a JOIN's range-table entry lists every column of both sides
 *     ({@code joinaliasvars}, {@code eref}), so the copy grows with the columns beneath each JOIN; a dialect may
 *     weigh the relations of blocks copied at a higher cost (PostgreSQL's pulled-up UNION ALL branches), and add
 *     the JOIN entries a pulled-up sub-select rewrites in the level it joins, at a lower one
 * @param partitionwiseGroupings child grouping relations of partitionwise aggregation: one per partition of a
 *     grouped block's partitioned input ({@code create_partitionwise_grouping_paths}); 0 unless the setting
 *     allows it
 */
public record PlannerWork(List<JoinSearch> searches, int blocks, int tokens, int setOperationBranches,
                          int listElements, int valueRows, int valueCells, double partitions,
                          double partitionwisePairs, double copiedJoinRelations, double partitionwiseGroupings) {

    /** A statement without joins. */
    public static final PlannerWork NONE = new PlannerWork(List.of());

    public PlannerWork {
        searches = List.copyOf(searches);
        if (blocks < 0 || tokens < 0 || setOperationBranches < 0 || listElements < 0 || valueRows < 0
                || valueCells < 0 || !(partitions >= 0) || !(partitionwisePairs >= 0)
                || !(copiedJoinRelations >= 0) || !(partitionwiseGroupings >= 0)) {
            throw new IllegalArgumentException("counts must be >= 0, were " + blocks + " blocks, " + tokens
                    + " tokens, " + setOperationBranches + " branches, " + listElements + " list elements, "
                    + valueRows + " value rows, " + valueCells + " value cells, " + partitions + " partitions and "
                    + partitionwisePairs + " partitionwise pairs, " + copiedJoinRelations + " copied join relations and "
                    + partitionwiseGroupings + " partitionwise groupings");
        }
    }

    /** The searches of {@code blocks} query blocks and set-operation branches, the text not counted. */
    public PlannerWork(List<JoinSearch> searches, int blocks, int setOperationBranches) {
        this(searches, blocks, 0, setOperationBranches, 0, 0, 0, 0, 0, 0, 0);
    }

    /**
     * This work, with {@code children} partitions planned, {@code childJoins} partitionwise child joins and
     * {@code childGroupings} partitionwise child grouping relations.
     */
    public PlannerWork withPartitions(double children, double childJoins, double childGroupings) {
        return new PlannerWork(searches, blocks, tokens, setOperationBranches, listElements, valueRows, valueCells,
                children, childJoins, copiedJoinRelations, childGroupings);
    }

    /** This work, with {@code relations} beneath the JOINs of blocks planned from a copy. */
    public PlannerWork withCopiedJoinRelations(double relations) {
        return new PlannerWork(searches, blocks, tokens, setOperationBranches, listElements, valueRows, valueCells,
                partitions, partitionwisePairs, relations, partitionwiseGroupings);
    }

    /** Join searches only, blocks and tokens not counted. */
    public PlannerWork(List<JoinSearch> searches) {
        this(searches, 0, 0);
    }

    /** This work, for a statement of {@code count} tokens and no lists of constants. */
    public PlannerWork withTokens(int count) {
        return withText(count, 0, 0, 0);
    }

    /** This work, for a statement of {@code plainTokens} tokens besides these lists of constants. */
    public PlannerWork withText(int plainTokens, int elements, int rows, int cells) {
        return new PlannerWork(searches, blocks, plainTokens, setOperationBranches, elements, rows, cells, partitions,
                partitionwisePairs, copiedJoinRelations, partitionwiseGroupings);
    }

    /** Join relations held at the peak, summed over all searches. */
    public double totalJoinPairs() {
        return searches.stream().mapToDouble(JoinSearch::joinPairs).sum();
    }

    /** Seconds the searches are predicted to take, summed; 0 where the dialect models memory only. */
    public double predictedSeconds() {
        return searches.stream().mapToDouble(JoinSearch::predictedSeconds).sum();
    }

    /** The search holding the most join relations. */
    public Optional<JoinSearch> largest() {
        return searches.stream().max(Comparator.comparingDouble(JoinSearch::joinPairs)
                .thenComparingInt(JoinSearch::relations));
    }

    /** Whether every count is exact (none ran out of its budget). */
    public boolean exact() {
        return searches.stream().allMatch(JoinSearch::exact);
    }
}

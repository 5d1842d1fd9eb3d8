package io.memogate.estimator.planner;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One SELECT's FROM clause and the conjuncts that link its relations: what PostgreSQL's
 * {@code query_planner} turns into join search problems.
 *
 * @param from the FROM clause (see {@link JoinTreeNode} for how sub-selects are marked)
 * @param predicates the conjuncts of WHERE and of every ON in {@code from}, one per AND-ed term
 * @param separatelyPlanned blocks PostgreSQL plans with their own {@code subquery_planner} call:
 *     sub-links kept as sub-plans, set-operation branches, materialized CTEs. A set operation is a
 *     block with an empty FROM and its branches here.
 * @param fastStart whether PostgreSQL plans this block for its first rows: a LIMIT or FETCH FIRST on
 *     it, or a cursor over it, gives it a tuple fraction below 1, and its join searches then also keep
 *     the paths that are cheapest to start (see {@link JoinSearch#fastStart()})
 * @param setOperation whether this is a UNION, INTERSECT or EXCEPT whose {@code separatelyPlanned} are its
 *     operands: PostgreSQL plans the operands that are queries as set-operation branches (UNION ALL's pulled up
 *     into an append relation, the others by {@code subquery_planner} from {@code plan_set_operations}), and an
 *     operand that is itself a set operation as part of the same tree, with no planner call of its own
 * @param keyJoined relations that are the whole nullable side of a LEFT JOIN whose condition equates their key
 *     column with a column of the other side, and that nothing else of the block reads (its output, grouping,
 *     ordering): as far as the text shows, what PostgreSQL's {@code remove_useless_joins} removes before the
 *     join search, when the key is unique and no other condition references them (the planner model checks
 *     that); empty where nobody looked
 * @param aggregates whether the block groups or aggregates (GROUP BY, HAVING, or an aggregate or window function in
 *     its select list) without grouping sets: over a partitioned relation, PostgreSQL may then group partition by
 *     partition ({@code enable_partitionwise_aggregate}, {@code create_partitionwise_grouping_paths}); a window
 *     function alone is taken for one, since the builder does not tell them apart
 * @param unionAll whether this set operation is UNION ALL throughout, down to its branches: PostgreSQL pulls such a
 *     tree's branches up into an append relation from a copy of each ({@code flatten_simple_union_all},
 *     {@code pull_up_simple_union_all}), where any other set operation tree (UNION, INTERSECT, EXCEPT, or UNION ALL
 *     mixed with them) has its branches planned in place by {@code plan_set_operations}; false for other blocks
 */
public record QueryBlock(JoinTreeNode from, List<Predicate> predicates, List<QueryBlock> separatelyPlanned,
                         boolean fastStart, boolean setOperation, Set<String> keyJoined, boolean aggregates,
                         boolean unionAll) {

    /** The column taken for a table's primary key where the catalog does not say: see {@code keyJoined}. */
    public static final String KEY_COLUMN = "id";

    public QueryBlock {
        Objects.requireNonNull(from, "from");
        predicates = List.copyOf(predicates);
        separatelyPlanned = List.copyOf(separatelyPlanned);
        keyJoined = Set.copyOf(keyJoined);
        if (unionAll && !setOperation) {
            throw new IllegalArgumentException("only a set operation is a UNION ALL");
        }
    }

    public QueryBlock(JoinTreeNode from, List<Predicate> predicates, List<QueryBlock> separatelyPlanned,
                      boolean fastStart, boolean setOperation, Set<String> keyJoined, boolean aggregates) {
        this(from, predicates, separatelyPlanned, fastStart, setOperation, keyJoined, aggregates, false);
    }

    public QueryBlock(JoinTreeNode from, List<Predicate> predicates, List<QueryBlock> separatelyPlanned,
                      boolean fastStart, boolean setOperation, Set<String> keyJoined) {
        this(from, predicates, separatelyPlanned, fastStart, setOperation, keyJoined, false);
    }

    public QueryBlock(JoinTreeNode from, List<Predicate> predicates, List<QueryBlock> separatelyPlanned,
                      boolean fastStart, boolean setOperation) {
        this(from, predicates, separatelyPlanned, fastStart, setOperation, Set.of());
    }

    /** This block with these LEFT-joined relations found removable as far as its text shows. */
    public QueryBlock withKeyJoined(Set<String> relations) {
        return new QueryBlock(from, predicates, separatelyPlanned, fastStart, setOperation, relations, aggregates,
                unionAll);
    }

    /** This block, grouping or aggregating (see {@code aggregates}) or not. */
    public QueryBlock withAggregates(boolean grouping) {
        return new QueryBlock(from, predicates, separatelyPlanned, fastStart, setOperation, keyJoined, grouping,
                unionAll);
    }

    public QueryBlock(JoinTreeNode from, List<Predicate> predicates, List<QueryBlock> separatelyPlanned,
                      boolean fastStart) {
        this(from, predicates, separatelyPlanned, fastStart, false);
    }

    /** A set operation of these operands, not UNION ALL throughout. */
    public static QueryBlock setOperation(JoinTreeNode from, List<QueryBlock> operands) {
        return setOperation(from, operands, false);
    }

    /** A set operation of these operands, UNION ALL throughout or not (see {@code unionAll}). */
    public static QueryBlock setOperation(JoinTreeNode from, List<QueryBlock> operands, boolean unionAll) {
        return new QueryBlock(from, List.of(), operands, false, true, Set.of(), false, unionAll);
    }

    /** This block with these blocks planned separately instead of its own, planned for its first rows. */
    public QueryBlock forFirstRows(List<QueryBlock> separately) {
        return new QueryBlock(from, predicates, separately, true, setOperation, keyJoined, aggregates, unionAll);
    }

    /** A block planned for all its rows. */
    public QueryBlock(JoinTreeNode from, List<Predicate> predicates, List<QueryBlock> separatelyPlanned) {
        this(from, predicates, separatelyPlanned, false);
    }

    /** A block with nothing planned separately. */
    public QueryBlock(JoinTreeNode from, List<Predicate> predicates) {
        this(from, predicates, List.of());
    }

    /**
     * This block with {@code more} planned apart beside it, as a WITH's CTEs are. A set operation's separately
     * planned blocks are its operands, so they go beside the whole operation, not among them.
     */
    public QueryBlock plannedBeside(List<QueryBlock> more) {
        if (more.isEmpty()) {
            return this;
        }
        List<QueryBlock> separate = new ArrayList<>(setOperation ? List.of(this) : separatelyPlanned);
        separate.addAll(more);
        return setOperation ? new QueryBlock(JoinTreeNode.FromList.of(), List.of(), separate, fastStart)
                : new QueryBlock(from, predicates, separate, fastStart, false, keyJoined, aggregates);
    }

    /** This block, planned for its first rows. */
    public QueryBlock forFirstRows() {
        return fastStart ? this
                : new QueryBlock(from, predicates, separatelyPlanned, true, setOperation, keyJoined, aggregates, unionAll);
    }
}

package io.memogate.estimator.planner;

import java.util.List;
import java.util.Objects;

/**
 * One SELECT's FROM clause and the conjuncts that link its relations: what PostgreSQL's
 * {@code query_planner} turns into join search problems.
 *
 * @param from the FROM clause (see {@link JoinTreeNode} for how sub-selects are marked)
 * @param predicates the conjuncts of WHERE and of every ON in {@code from}, one per AND-ed term
 * @param separatelyPlanned blocks PostgreSQL plans with their own {@code subquery_planner} call:
 *     sub-links kept as sub-plans, set-operation branches, materialized CTEs. A set operation is a
 *     block with an empty FROM and its branches here.
 */
public record QueryBlock(JoinTreeNode from, List<Predicate> predicates, List<QueryBlock> separatelyPlanned) {

    public QueryBlock {
        Objects.requireNonNull(from, "from");
        predicates = List.copyOf(predicates);
        separatelyPlanned = List.copyOf(separatelyPlanned);
    }

    /** A block with nothing planned separately. */
    public QueryBlock(JoinTreeNode from, List<Predicate> predicates) {
        this(from, predicates, List.of());
    }
}

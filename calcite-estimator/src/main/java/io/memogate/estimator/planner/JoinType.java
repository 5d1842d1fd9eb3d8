package io.memogate.estimator.planner;

/**
 * The kind of an explicit join. SEMI and ANTI are what PostgreSQL's {@code pull_up_sublinks}
 * (src/backend/optimizer/prep/prepjointree.c) makes of {@code IN}/{@code EXISTS} and
 * {@code NOT EXISTS} sub-selects in WHERE; CROSS is an inner join without a condition.
 */
public enum JoinType {
    INNER,
    LEFT,
    RIGHT,
    FULL,
    CROSS,
    SEMI,
    ANTI
}

/**
 * A statement's joins as a planner sees them, the work of its join searches, and the memory that takes:
 * shared by every dialect.
 *
 * <p>A builder (the Calcite visitors) describes each query block with
 * {@link io.memogate.estimator.planner.QueryBlock}, {@link io.memogate.estimator.planner.JoinTreeNode}
 * and {@link io.memogate.estimator.planner.Predicate}: a model of the join tree, independent of any parser
 * or wire protocol. A dialect's {@link io.memogate.estimator.dialect.PlannerModel} splits it into join search
 * problems under the session's settings and sizes each ({@link io.memogate.estimator.planner.PlannerWork});
 * {@link io.memogate.estimator.planner.MemoryModel} weighs the work's
 * {@link io.memogate.estimator.planner.MemoryTerms} with the dialect's
 * {@link io.memogate.estimator.planner.TermCoefficients}.
 *
 * <p>What is one server's lives in that server's package: PostgreSQL's planner model, its settings
 * (join_collapse_limit, from_collapse_limit, geqo, ...) and the byte coefficients fitted to its planner are in
 * {@code io.memogate.estimator.postgres}. Nothing here names a server's package.
 */
package io.memogate.estimator.planner;

/**
 * A statement's joins as a planner sees them, the work of its join searches, and the memory that takes.
 *
 * <p>A builder (the Calcite visitors) describes each query block with
 * {@link io.memogate.estimator.planner.QueryBlock}, {@link io.memogate.estimator.planner.JoinTreeNode}
 * and {@link io.memogate.estimator.planner.Predicate}: a model of the join tree, independent of any parser
 * or wire protocol. A dialect's {@link io.memogate.estimator.dialect.PlannerModel} (PostgreSQL's:
 * {@link io.memogate.estimator.postgres.PostgresPlannerModel}) splits it into join search problems under
 * the session's settings and sizes each ({@link io.memogate.estimator.planner.PlannerWork});
 * {@link io.memogate.estimator.planner.MemoryModel} turns that into bytes with replaceable
 * {@link io.memogate.estimator.planner.MemoryCoefficients}.
 *
 * <p>{@link io.memogate.estimator.planner.PlannerSettings} are PostgreSQL's settings, and the memory terms and
 * coefficients were fitted to PostgreSQL's searches (dynamic programming, GEQO). They stay here, not in
 * {@code postgres}, because the proxy reads and configures them in many places.
 */
package io.memogate.estimator.planner;

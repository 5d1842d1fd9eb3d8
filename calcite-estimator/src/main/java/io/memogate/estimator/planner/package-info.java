/**
 * What PostgreSQL's planner will do with a statement's joins, and the memory that takes.
 *
 * <p>A builder (the Calcite visitors) describes each query block with
 * {@link io.memogate.estimator.planner.QueryBlock}, {@link io.memogate.estimator.planner.JoinTreeNode}
 * and {@link io.memogate.estimator.planner.Predicate}: a model of PostgreSQL's join tree, independent
 * of any parser or wire protocol. {@link io.memogate.estimator.planner.PostgresPlannerModel} splits it
 * into join search problems under the session's {@link io.memogate.estimator.planner.PlannerSettings},
 * as PostgreSQL 17 does, and sizes each ({@link io.memogate.estimator.planner.PlannerWork});
 * {@link io.memogate.estimator.planner.MemoryModel} turns that into bytes with replaceable
 * {@link io.memogate.estimator.planner.MemoryCoefficients}.
 */
package io.memogate.estimator.planner;

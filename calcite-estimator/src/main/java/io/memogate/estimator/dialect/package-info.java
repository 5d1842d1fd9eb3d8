/**
 * The seam between the shared estimator and one kind of server.
 *
 * <p>A {@link io.memogate.estimator.dialect.Dialect} bundles what differs per server: the lexer, Calcite's
 * parser set-up and the {@link io.memogate.estimator.dialect.Rewriter} run before it, the
 * {@link io.memogate.estimator.dialect.PlannerModel} with its {@link io.memogate.estimator.dialect.DialectSettings},
 * and the memory model's coefficients. Each server has its own package beside this one
 * ({@code io.memogate.estimator.postgres}); the estimator's pipeline and caches, the query blocks
 * ({@code planner}) and the join graphs ({@code graph}) are shared and reach a server's parts only through
 * its dialect (the estimator's no-argument constructor, which picks PostgreSQL, aside).
 */
package io.memogate.estimator.dialect;

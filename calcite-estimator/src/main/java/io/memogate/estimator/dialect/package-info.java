/**
 * The seam between the shared estimator and one kind of server.
 *
 * <p>A {@link io.memogate.estimator.dialect.Dialect} bundles what differs per server: the lexical analyzer
 * over the server's {@link io.memogate.estimator.lexer.LexicalRules} and
 * {@link io.memogate.estimator.lexer.StatementReader}, Calcite's parser set-up and the
 * {@link io.memogate.estimator.dialect.Rewriter} run before it, the
 * {@link io.memogate.estimator.dialect.PlannerModel} with its {@link io.memogate.estimator.dialect.DialectSettings},
 * and the memory model's {@link io.memogate.estimator.planner.TermCoefficients}. Each server has its own
 * package beside this one ({@code io.memogate.estimator.postgres}, {@code io.memogate.estimator.mysql},
 * {@code io.memogate.estimator.sqlserver}); the estimator's pipeline and caches, the lexer's skeleton
 * ({@code lexer}), the query blocks ({@code planner}) and the join graphs ({@code graph}) are shared and reach a
 * server's parts only through its dialect. Two places still pick PostgreSQL where no dialect is at hand: the
 * estimator's no-argument constructor, and the catalog's routines ({@code RoutineDefinitions}), whose bodies
 * a reader of pg_proc hands over as PL/pgSQL.
 */
package io.memogate.estimator.dialect;

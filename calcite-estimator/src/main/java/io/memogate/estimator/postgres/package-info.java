/**
 * PostgreSQL (17 and 18) as the estimator knows it: one folder per server beside the shared skeleton
 * ({@code lexer}, {@code calcite}, {@code graph}, {@code planner}), reached through
 * {@link io.memogate.estimator.postgres.PostgresDialect}.
 *
 * <ul>
 * <li>text: {@link io.memogate.estimator.postgres.PostgresLexicalRules} (dollar quotes, {@code E''}/{@code B''}/
 *     {@code X''}/{@code U&''} strings, nested comments, the operator rules), and what is PostgreSQL's language
 *     in a statement: {@link io.memogate.estimator.postgres.SettingParser} (SET, RESET, set_config),
 *     {@link io.memogate.estimator.postgres.DoStatement} and
 *     {@link io.memogate.estimator.postgres.PlpgsqlStatements} (the queries a DO block or a PL/pgSQL body has
 *     the server plan);</li>
 * <li>parsing: Calcite's Babel parser set up for PostgreSQL, after the
 *     {@link io.memogate.estimator.postgres.PostgresRewriter};</li>
 * <li>planning: {@link io.memogate.estimator.postgres.PostgresPlannerModel} (deconstruct_jointree's join lists
 *     under the collapse limits, dynamic programming or GEQO) under the session's
 *     {@link io.memogate.estimator.postgres.PlannerSettings};</li>
 * <li>bytes: {@link io.memogate.estimator.postgres.MemoryCoefficients}, fitted to PostgreSQL's planner
 *     ({@code memogate calibrate} fits a server's own).</li>
 * </ul>
 * A MySQL or SQL Server dialect is a package beside this one ({@code estimator.mysql},
 * {@code estimator.sqlserver}) with its own rules, rewriter, planner model, settings and coefficients.
 */
package io.memogate.estimator.postgres;

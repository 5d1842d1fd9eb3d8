/**
 * SQL Server's dialect of the estimator ({@link io.memogate.estimator.sqlserver.SqlServerDialect}).
 *
 * <p>T-SQL is lexed by the shared lexer under {@link io.memogate.estimator.sqlserver.TsqlLexicalRules} (bracketed
 * names, {@code @} and {@code #} names, nested comments, statements a batch does not separate), rewritten for
 * Calcite's Babel parser by {@link io.memogate.estimator.sqlserver.TsqlRewriter} (with
 * {@link io.memogate.estimator.sqlserver.TsqlConvert} and {@link io.memogate.estimator.sqlserver.TsqlStatements}),
 * and planned by {@link io.memogate.estimator.sqlserver.SqlServerPlannerModel}: one Cascades search per block,
 * bounded by a task budget, so that compile memory grows with the joins and then saturates, with
 * {@link io.memogate.estimator.sqlserver.SqlServerCoefficients} taken from published showplans, not measured here.
 */
package io.memogate.estimator.sqlserver;

/**
 * From SQL text to the planner's query blocks through Calcite's Babel parser.
 *
 * <p>The dialect's rewriter (for PostgreSQL, {@link io.memogate.estimator.postgres.PostgresRewriter})
 * first rewrites, token by token, what Babel 1.42 rejects but the server accepts (UPDATE ... FROM,
 * DELETE ... USING, MERGE, INSERT ... ON CONFLICT, JSON and other PostgreSQL operators, DISTINCT ON,
 * [NOT] MATERIALIZED, array types, ...), keeping the join structure; Calcite parses with the dialect's
 * parser configuration. {@link io.memogate.estimator.calcite.QueryBlockBuilder}, with one small visitor
 * per question ({@code ReferencedRelations}, {@code GroupingFinder}, {@code CteReferences}) and a
 * {@code Scope} per SELECT, builds {@link io.memogate.estimator.planner.QueryBlock}s and decides what
 * PostgreSQL pulls up. When Calcite cannot read a statement,
 * {@link io.memogate.estimator.calcite.LexicalFallback} reads the blocks off the tokens and assumes a star
 * join in each.
 */
package io.memogate.estimator.calcite;

/**
 * Join graphs and the size of the memo a dynamic-programming join search builds over them.
 *
 * <p>{@link io.memogate.estimator.graph.JoinGraph} holds the relations of one join search problem and
 * the clauses linking them; {@link io.memogate.estimator.graph.CsgCmpCounter} counts its csg-cmp pairs
 * (Moerkotte &amp; Neumann, VLDB 2006), exactly within a step budget and by extrapolation beyond it, and
 * models the Cartesian products PostgreSQL adds when the graph is not connected. The result,
 * {@link io.memogate.estimator.graph.MemoSize}, is what planner memory grows with: about 2-4 kB per
 * pair in PostgreSQL 17 and 18, and, on tables with data, with the join clauses linking each pair's two sides
 * ({@link io.memogate.estimator.graph.MemoSize#extraClauses()}). Nothing here knows SQL or a server;
 * the planner package builds the graphs.
 */
package io.memogate.estimator.graph;

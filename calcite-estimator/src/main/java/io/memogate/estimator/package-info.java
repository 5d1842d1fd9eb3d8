/**
 * The estimator's entry point: {@link io.memogate.estimator.CompileEstimator} turns SQL text and the
 * session's planner settings into {@link io.memogate.estimator.CompileEstimate}s, one per statement, using
 * the lexer, the Calcite path or its lexical fallback, the PostgreSQL planner model and the memory model
 * (docs/DESIGN.md, "Data flow of one statement", step 3). EXECUTE of a statement PREPAREd in SQL finds
 * its text through {@link io.memogate.estimator.PreparedStatementTexts}.
 */
package io.memogate.estimator;

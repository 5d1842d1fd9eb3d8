/**
 * The estimator's entry point: {@link io.memogate.estimator.CompileEstimator} turns SQL text and the
 * session's planner settings into {@link io.memogate.estimator.CompileEstimate}s, one per statement, for the
 * server of its {@link io.memogate.estimator.dialect.Dialect} (docs/DESIGN.md, "Data flow of one statement",
 * step 3): {@link io.memogate.estimator.EstimateCaches} answer what was seen before, and wrap the
 * {@link io.memogate.estimator.EstimatePipeline} that runs the dialect's lexer, the Calcite path or its lexical
 * fallback, the dialect's planner model and its memory model. EXECUTE of a statement PREPAREd in SQL finds
 * its text through {@link io.memogate.estimator.PreparedStatementTexts}.
 */
package io.memogate.estimator;

package io.memogate.estimator;

import io.memogate.estimator.lexer.StatementAnalysis;
import java.util.function.Supplier;

/**
 * How the pipeline estimates the statements a statement leads to (the next of a text, EXECUTE's prepared
 * statement, the queries of a DO block or of a routine it calls): through the caches that wrap it, so that
 * each is remembered as a statement sent on its own would be.
 */
interface StatementEstimates {

    /** {@code statement} of {@code text}; {@code followExecute} false for what an EXECUTE itself runs. */
    CompileEstimate statement(String text, StatementAnalysis statement, EstimateContext context, boolean followExecute);

    /**
     * The largest estimate of {@code routine}'s queries under {@code context} (null when it has none): remembered,
     * else computed by {@code largest}.
     */
    CompileEstimate routine(RoutineDefinitions.Routine routine, EstimateContext context,
                            Supplier<CompileEstimate> largest);
}

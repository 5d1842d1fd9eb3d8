package io.memogate.proxy.admission;

import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.EstimatorStatistics;
import java.util.function.Supplier;

/**
 * The estimator a server's admission asks now, of that server's kind; a reload may put another in force
 * (other coefficients), so it is asked for each statement, never kept. Thread-safe.
 */
public interface EstimatorInForce extends Supplier<CompileEstimator> {

    /** Counts since the first estimator was put in force, over every one since: monotonic, for the metrics. */
    EstimatorStatistics statistics();
}

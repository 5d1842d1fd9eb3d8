package io.memogate.proxy.metrics;

import io.memogate.estimator.CompileEstimate;

/**
 * Where the admission code reports each estimate it admits on, for {@code memogate_estimate_bytes}.
 * From {@link EstimatorMeters#recorder()}.
 */
@FunctionalInterface
public interface EstimateRecorder {

    /** Records the estimate's bytes, unless it was a bypass (those are not admitted, and are 0 bytes). */
    void record(CompileEstimate estimate);
}

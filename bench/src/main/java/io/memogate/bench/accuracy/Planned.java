package io.memogate.bench.accuracy;

import io.memogate.estimator.CompileEstimate;
import io.memogate.proxy.postgres.calibrate.Measurement;
import io.memogate.proxy.postgres.calibrate.Observation;

/**
 * One statement planned under one profile: the estimate and what the server reported.
 *
 * @param corpus the corpus's name
 * @param id the statement's name in it
 * @param profile the planner settings' name (default, wide)
 * @param estimate the estimator's answer under the profile's settings
 * @param measuredBytes the planner's memory, or -1 when it was not measured
 * @param outcome "ok", or why there is no measurement (the server's error, a kill, a skip)
 */
record Planned(String corpus, String id, String profile, CompileEstimate estimate, long measuredBytes,
                   String outcome) {

    static final String OK = "ok";

    boolean measured() {
        return measuredBytes >= 0;
    }

    /** Estimate over measurement; NaN when not measured. */
    double ratio() {
        return measured() ? (double) estimate.estimatedBytes() / measuredBytes : Double.NaN;
    }

    /** For the calibration's statistics: measured and estimated. */
    Observation observation() {
        return new Observation(measuredBytes, estimate.estimatedBytes());
    }

    /** For the calibration's fit: measured, with the model's terms. */
    Measurement measurement() {
        return new Measurement(corpus + " " + id, estimate.relations(), estimate.memoPairs(), estimate.terms(),
                measuredBytes);
    }
}

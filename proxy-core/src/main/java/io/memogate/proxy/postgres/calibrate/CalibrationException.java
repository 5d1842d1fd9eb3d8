package io.memogate.proxy.postgres.calibrate;

/** A calibration that cannot go on: a server too old, or output that is not what EXPLAIN should give. */
public final class CalibrationException extends RuntimeException {

    public CalibrationException(String message) {
        super(message);
    }
}

package io.memogate.proxy.postgres.calibrate;

/**
 * A statement's planner memory as measured and as estimated, in bytes.
 *
 * @param measuredBytes what PostgreSQL reported, more than 0
 * @param estimatedBytes what the model says, at least 0
 */
public record Observation(long measuredBytes, long estimatedBytes) {

    public Observation {
        if (measuredBytes <= 0 || estimatedBytes < 0) {
            throw new IllegalArgumentException("measured must be positive and estimated at least 0, were "
                    + measuredBytes + " and " + estimatedBytes);
        }
    }

    /** estimated / measured. */
    public double ratio() {
        return (double) estimatedBytes / measuredBytes;
    }

    /** Within a factor of 2 either way. */
    public boolean withinTwice() {
        double ratio = ratio();
        return ratio >= 0.5 && ratio <= 2.0;
    }
}

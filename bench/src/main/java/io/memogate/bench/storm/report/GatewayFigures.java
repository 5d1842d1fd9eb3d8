package io.memogate.bench.storm.report;

/**
 * What Memogate's gateways decided over one cell, and how often it recycled a server connection, warm-up
 * included (their listeners cannot tell the two apart), to set beside what the clients saw.
 *
 * @param longestWaitNanos the longest an admitted statement queued
 * @param recycled server connections replaced because their process kept more than recycle.retainedAbove
 * @param degraded statements run under tighter planner settings (admission.degrade, gateways-degrade only)
 */
public record GatewayFigures(long admitted, long timeouts, long queueFull, long longestWaitNanos, long recycled,
                             long degraded) {

    public GatewayFigures withRecycled(long count) {
        return new GatewayFigures(admitted, timeouts, queueFull, longestWaitNanos, count, degraded);
    }

    public GatewayFigures withDegraded(long count) {
        return new GatewayFigures(admitted, timeouts, queueFull, longestWaitNanos, recycled, count);
    }

    /** Degraded statements over every statement the gateways decided (admitted or refused), in percent. */
    public double degradedPercent() {
        long decided = admitted + timeouts + queueFull;
        return decided == 0 ? Double.NaN : 100.0 * degraded / decided;
    }
}

package io.memogate.bench.storm.report;

/**
 * What Memogate's gateways decided over one cell, and how often it recycled a server connection, warm-up
 * included (their listeners cannot tell the two apart), to set beside what the clients saw.
 *
 * @param longestWaitNanos the longest an admitted statement queued
 * @param recycled server connections replaced because their process kept more than recycle.retainedAbove
 */
public record GatewayFigures(long admitted, long timeouts, long queueFull, long longestWaitNanos, long recycled) {

    public GatewayFigures withRecycled(long count) {
        return new GatewayFigures(admitted, timeouts, queueFull, longestWaitNanos, count);
    }
}

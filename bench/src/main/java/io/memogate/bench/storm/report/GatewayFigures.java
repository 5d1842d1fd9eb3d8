package io.memogate.bench.storm.report;

/**
 * What Memogate's gateways decided over one cell, warm-up included (their listener cannot tell the two
 * apart), to set beside what the clients saw.
 *
 * @param longestWaitNanos the longest an admitted statement queued
 */
public record GatewayFigures(long admitted, long timeouts, long queueFull, long longestWaitNanos) {
}

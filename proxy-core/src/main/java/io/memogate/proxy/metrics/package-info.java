/**
 * Metrics and the admin HTTP endpoint.
 *
 * <p>{@link io.memogate.proxy.metrics.MetricsEndpoint} owns a run's registries (Prometheus and JMX,
 * {@link io.memogate.proxy.metrics.MetricsRegistries}) and the HTTP server
 * ({@link io.memogate.proxy.metrics.AdminHttpServer}: {@code GET /metrics}, {@code GET /health}).
 * Each component ships a {@code MeterBinder} ({@link io.memogate.proxy.metrics.ProxyMeters},
 * {@link io.memogate.proxy.metrics.EstimatorMeters}, the broker's) and may add a
 * {@link io.memogate.proxy.metrics.HealthCheck}. Meter names live in {@link io.memogate.proxy.metrics.Names}.
 * Gauges and function counters read state the component keeps anyway: nothing runs SQL or blocks at
 * scrape time.
 */
package io.memogate.proxy.metrics;

package io.memogate.proxy.metrics;

/**
 * A component's part of {@code GET /health}, added with {@link MetricsEndpoint#addHealthCheck}. The
 * endpoint is UP only when every check is; the details of all checks are merged into one object.
 *
 * <p>Called on the admin HTTP thread for each request, which health probes send every few seconds:
 * return state the component already keeps (the broker's last snapshot, a flag); never do I/O or
 * block here.
 */
@FunctionalInterface
public interface HealthCheck {

    Health check();
}

package io.memogate.proxy.cli;

import io.memogate.proxy.admission.AdmissionHook;
import io.memogate.proxy.config.MemogateConfig;
import io.memogate.proxy.metrics.MetricsEndpoint;
import io.memogate.proxy.metrics.ProxyMeters;
import io.memogate.proxy.server.ProxyServer;

/**
 * The proxy and its metrics endpoint, started and stopped in the order operations need, for `run` and
 * `demo` alike: the endpoint first, so that a taken admin port stops the start before any client is
 * accepted; {@code /health} UP once the proxy listens; on close, {@code /health} DOWN before the
 * sessions drain (load balancers stop sending clients), the endpoint last.
 */
final class RunningProxy implements AutoCloseable {

    private final MetricsEndpoint metrics;
    private final ProxyServer server;

    private RunningProxy(MetricsEndpoint metrics, ProxyServer server) {
        this.metrics = metrics;
        this.server = server;
    }

    static RunningProxy start(MemogateConfig config, AdmissionHook admission) throws Exception {
        MetricsEndpoint metrics = MetricsEndpoint.start(config.admin().http());
        ProxyServer server;
        try {
            server = ProxyServer.start(config, admission);
        } catch (Exception | Error e) {
            metrics.close();
            throw e;
        }
        metrics.bind(new ProxyMeters(server));
        metrics.markServing();
        return new RunningProxy(metrics, server);
    }

    ProxyServer server() {
        return server;
    }

    MetricsEndpoint metrics() {
        return metrics;
    }

    @Override
    public void close() {
        metrics.markStopping();
        try {
            server.close();
        } finally {
            metrics.close();
        }
    }
}

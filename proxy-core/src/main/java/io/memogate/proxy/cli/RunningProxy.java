package io.memogate.proxy.cli;

import io.memogate.estimator.CompileEstimator;
import io.memogate.proxy.admission.AdmissionControl;
import io.memogate.proxy.admission.AdmissionSupport;
import io.memogate.proxy.admission.ImmediateAdmission;
import io.memogate.proxy.config.AdmissionConfig;
import io.memogate.proxy.config.MemogateConfig;
import io.memogate.proxy.metrics.BrokerMeters;
import io.memogate.proxy.metrics.EstimatorMeters;
import io.memogate.proxy.metrics.GatewayMeters;
import io.memogate.proxy.metrics.Health;
import io.memogate.proxy.metrics.MetricsEndpoint;
import io.memogate.proxy.metrics.ProxyMeters;
import io.memogate.proxy.server.ProxyServer;
import java.util.Locale;
import java.util.Optional;

/**
 * The proxy, its admission control and its metrics endpoint, started and stopped in the order
 * operations need, for `run` and `demo` alike: the endpoint first, so that a taken admin port stops the
 * start before any client is accepted; then the gateways and the broker (when admission is enabled);
 * {@code /health} UP once the proxy listens; on close, {@code /health} DOWN before the sessions drain
 * (load balancers stop sending clients), the broker after the sessions, the endpoint last.
 */
final class RunningProxy implements AutoCloseable {

    private final MetricsEndpoint metrics;
    private final Optional<AdmissionControl> admission;
    private final ProxyServer server;

    private RunningProxy(MetricsEndpoint metrics, Optional<AdmissionControl> admission, ProxyServer server) {
        this.metrics = metrics;
        this.admission = admission;
        this.server = server;
    }

    static RunningProxy start(MemogateConfig config) throws Exception {
        MetricsEndpoint metrics = MetricsEndpoint.start(config.admin().http());
        Optional<AdmissionControl> admission = Optional.empty();
        ProxyServer server;
        try {
            admission = admission(config, metrics);
            server = admission.isPresent()
                    ? ProxyServer.start(config, admission.get().hook(), admission.get().support())
                    : ProxyServer.start(config, new ImmediateAdmission(), AdmissionSupport.DEFAULTS);
        } catch (Exception | Error e) {
            admission.ifPresent(AdmissionControl::close);
            metrics.close();
            throw e;
        }
        metrics.bind(new ProxyMeters(server));
        metrics.markServing();
        return new RunningProxy(metrics, admission, server);
    }

    /** The gateways and the broker with their meters, when admission is enabled; the broker starts polling. */
    private static Optional<AdmissionControl> admission(MemogateConfig config, MetricsEndpoint metrics) {
        AdmissionConfig settings = config.admission();
        if (!settings.enabled()) {
            return Optional.empty();
        }
        GatewayMeters gatewayMeters = new GatewayMeters();
        CompileEstimator estimator = new CompileEstimator();
        EstimatorMeters estimatorMeters = new EstimatorMeters(estimator);
        AdmissionControl control = new AdmissionControl(estimator, settings.gatewaySettings(),
                config.broker().staticTargetBytes(), config.brokerSettings(), settings.waitNotice(), gatewayMeters,
                estimatorMeters.recorder()::record);
        gatewayMeters.gateways(control.gateways());
        metrics.bind(gatewayMeters);
        metrics.bind(estimatorMeters);
        metrics.bind(new BrokerMeters(control.gateways(), control.broker()));
        // The proxy serves whatever the broker's state: it only says how sure the target is.
        metrics.addHealthCheck(() -> Health.UP.with("broker", control.broker()
                .map(broker -> broker.state().mode().name().toLowerCase(Locale.ROOT)).orElse("off")));
        return Optional.of(control.start());
    }

    ProxyServer server() {
        return server;
    }

    MetricsEndpoint metrics() {
        return metrics;
    }

    Optional<AdmissionControl> admission() {
        return admission;
    }

    @Override
    public void close() {
        metrics.markStopping();
        try {
            server.close();
        } finally {
            try {
                admission.ifPresent(AdmissionControl::close);
            } finally {
                metrics.close();
            }
        }
    }
}

package io.memogate.proxy.cli;

import io.memogate.estimator.planner.PlannerSettings;
import io.memogate.proxy.admin.AdminConsole;
import io.memogate.proxy.admission.AdmissionControl;
import io.memogate.proxy.admission.AdmissionHook;
import io.memogate.proxy.admission.AdmissionSupport;
import io.memogate.proxy.admission.CurrentEstimator;
import io.memogate.proxy.admission.ImmediateAdmission;
import io.memogate.proxy.catalog.IndexCatalogs;
import io.memogate.proxy.config.AdmissionConfig;
import io.memogate.proxy.config.ConfigException;
import io.memogate.proxy.config.ConfigLoader;
import io.memogate.proxy.config.MemogateConfig;
import io.memogate.proxy.metrics.BrokerMeters;
import io.memogate.proxy.metrics.EstimatorMeters;
import io.memogate.proxy.metrics.EventLoopMeters;
import io.memogate.proxy.metrics.GatewayMeters;
import io.memogate.proxy.metrics.Health;
import io.memogate.proxy.metrics.MetricsEndpoint;
import io.memogate.proxy.metrics.ProxyMeters;
import io.memogate.proxy.reload.ConfigReloader;
import io.memogate.proxy.reload.CurrentConfig;
import io.memogate.proxy.server.ProxyServer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The proxy, its admission control, its admin console and its metrics endpoint, started and stopped in
 * the order operations need, for `run` and `demo` alike: the endpoint first, so that a taken admin port
 * stops the start before any client is accepted; then the gateways and the broker (when admission is
 * enabled); then the server with its console and the reloader that changes the configuration in force;
 * {@code /health} UP once the proxy listens; on close, {@code /health} DOWN before the sessions drain
 * (load balancers stop sending clients), the broker after the sessions, the endpoint last.
 */
public final class RunningProxy implements AutoCloseable {

    private final MetricsEndpoint metrics;
    private final Optional<AdmissionControl> admission;
    private final ProxyServer server;
    private final ConfigReloader reloader;

    private RunningProxy(MetricsEndpoint metrics, Optional<AdmissionControl> admission, ProxyServer server,
                         ConfigReloader reloader) {
        this.metrics = metrics;
        this.admission = admission;
        this.server = server;
        this.reloader = reloader;
    }

    /** A proxy whose configuration was built in code: RELOAD has no file to read. */
    public static RunningProxy start(MemogateConfig config) throws Exception {
        return start(config, Optional.empty());
    }

    /**
     * @param file the file {@code config} was read from: RELOAD and SIGHUP read it again, and it is watched
     *     every admin.watchInterval
     */
    public static RunningProxy start(MemogateConfig config, Optional<Path> file) throws Exception {
        MetricsEndpoint metrics = MetricsEndpoint.start(config.admin().http());
        Optional<AdmissionControl> admission = Optional.empty();
        AtomicReference<ConfigReloader> reloader = new AtomicReference<>();
        ProxyServer server;
        try {
            CurrentConfig current = new CurrentConfig(config);
            CurrentEstimator estimator = new CurrentEstimator(config.estimator().coefficients());
            admission = admission(config, current, estimator, metrics);
            Optional<AdmissionControl> control = admission;
            server = ProxyServer.start(config,
                    control.<AdmissionHook>map(AdmissionControl::hook).orElseGet(ImmediateAdmission::new),
                    control.map(AdmissionControl::support).orElse(AdmissionSupport.DEFAULTS),
                    proxy -> {
                        // Built here because both act on the server, and the server routes the console's logins.
                        // A reload the server took also brings the estimator.coefficients in force.
                        ConfigReloader changes = new ConfigReloader(current, file, new ConfigLoader(), next -> {
                            proxy.reconfigure(next);
                            estimator.use(next.estimator().coefficients());
                        }, control.map(AdmissionControl::gateways), Instant::now);
                        // A database now routed elsewhere has that server's catalog: read it now, where the
                        // configuration in force (which the reads follow) routes it.
                        changes.afterReload((before, next) -> {
                            if (!next.backends().equals(before.backends())) {
                                control.ifPresent(c -> c.indexCatalogs().refreshAll());
                            }
                        });
                        reloader.set(changes);
                        return new AdminConsole(changes, control, estimator,
                                () -> control.map(AdmissionControl::plannerDefaults).orElse(PlannerSettings.DEFAULTS),
                                proxy, Clock.systemUTC());
                    });
        } catch (Exception | Error e) {
            Optional.ofNullable(reloader.get()).ifPresent(ConfigReloader::close);
            admission.ifPresent(AdmissionControl::close);
            metrics.close();
            if (e instanceof ConfigException problems && file.isPresent()) {
                throw problems.from(file.get()); // a TLS file found wrong while the server started
            }
            throw e;
        }
        metrics.bind(new ProxyMeters(server));
        metrics.bind(new EventLoopMeters(server.eventLoopGroup()));
        reloader.get().watch(config.admin().watchInterval());
        metrics.markServing();
        return new RunningProxy(metrics, admission, server, reloader.get());
    }

    /** The gateways and the broker with their meters, when admission is enabled; the broker starts polling. */
    private static Optional<AdmissionControl> admission(MemogateConfig config, CurrentConfig current,
                                                        CurrentEstimator estimator, MetricsEndpoint metrics) {
        AdmissionConfig settings = config.admission();
        if (!settings.enabled()) {
            return Optional.empty();
        }
        GatewayMeters gatewayMeters = new GatewayMeters();
        EstimatorMeters estimatorMeters = new EstimatorMeters(estimator::statistics);
        // Read where a database is routed now: a reload that moves it moves its catalog's next read too.
        IndexCatalogs indexCatalogs = config.broker().monitor()
                .map(m -> new IndexCatalogs(database -> current.get().catalogUrl(database), m.user(),
                        m.password().orElse(null)))
                .orElse(IndexCatalogs.NONE);
        AdmissionControl control = new AdmissionControl(estimator, indexCatalogs, settings.gatewaySettings(),
                config.broker().staticTargetBytes(), config.brokerSettings(),
                () -> current.get().admission().waitNotice(), () -> current.get().admission().holdWhileRunning(),
                gatewayMeters, estimatorMeters.recorder()::record);
        gatewayMeters.gateways(control.gateways());
        metrics.bind(gatewayMeters);
        metrics.bind(estimatorMeters);
        metrics.bind(new BrokerMeters(control.gateways(), control.broker()));
        // The proxy serves whatever the broker's state: it only says how sure the target is.
        metrics.addHealthCheck(() -> Health.UP.with("broker", control.broker()
                .map(broker -> broker.state().mode().name().toLowerCase(Locale.ROOT)).orElse("off")));
        return Optional.of(control.start());
    }

    public ProxyServer server() {
        return server;
    }

    public MetricsEndpoint metrics() {
        return metrics;
    }

    public Optional<AdmissionControl> admission() {
        return admission;
    }

    /** Reloads and SETs: the configuration in force is {@code reloader().current().get()}. */
    public ConfigReloader reloader() {
        return reloader;
    }

    @Override
    public void close() {
        metrics.markStopping();
        reloader.close();
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

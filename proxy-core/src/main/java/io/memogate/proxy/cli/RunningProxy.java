package io.memogate.proxy.cli;

import io.memogate.broker.BrokerRole;
import io.memogate.broker.redis.RedisGateways;
import io.memogate.estimator.lexer.LexicalAnalyzer;
import io.memogate.estimator.postgres.PostgresLexicalRules;
import io.memogate.proxy.admin.AdminConsole;
import io.memogate.proxy.admission.AdmissionControl;
import io.memogate.proxy.admission.AdmissionRouting;
import io.memogate.proxy.admission.ImmediateAdmission;
import io.memogate.proxy.admission.ServerAdmissions;
import io.memogate.proxy.admission.ServerCatalogs;
import io.memogate.proxy.admission.ServerKind;
import io.memogate.proxy.config.BackendConfig;
import io.memogate.proxy.config.ConfigException;
import io.memogate.proxy.config.ConfigLoader;
import io.memogate.proxy.config.MemogateConfig;
import io.memogate.proxy.metrics.BrokerMeters;
import io.memogate.proxy.metrics.DegradeMeters;
import io.memogate.proxy.metrics.EstimatorMeters;
import io.memogate.proxy.metrics.EventLoopMeters;
import io.memogate.proxy.metrics.FleetMeters;
import io.memogate.proxy.metrics.GatewayMeters;
import io.memogate.proxy.metrics.Health;
import io.memogate.proxy.metrics.MetricsEndpoint;
import io.memogate.proxy.metrics.ProxyMeters;
import io.memogate.proxy.metrics.ServerGatewayMeters;
import io.memogate.proxy.mysql.CurrentMySqlEstimator;
import io.memogate.proxy.mysql.MySqlServer;
import io.memogate.proxy.postgres.CurrentEstimator;
import io.memogate.proxy.postgres.PostgresServer;
import io.memogate.proxy.mysql.catalog.MySqlCatalogs;
import io.memogate.proxy.postgres.catalog.IndexCatalogs;
import io.memogate.proxy.reload.ConfigReloader;
import io.memogate.proxy.reload.CurrentConfig;
import io.memogate.proxy.server.ProxyServer;
import io.memogate.proxy.tds.TdsServer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The proxy, its admission control, its admin console and its metrics endpoint, started and stopped in
 * the order operations need, for `run` and `demo` alike: the endpoint first, so that a taken admin port
 * stops the start before any client is accepted; then the gateways and the broker (when admission is
 * enabled), one set per backend's server; then the server with its console and the reloader that changes the configuration in force;
 * {@code /health} UP once the proxy listens; on close, {@code /health} DOWN before the sessions drain
 * (load balancers stop sending clients), the broker after the sessions, the endpoint last.
 */
public final class RunningProxy implements AutoCloseable {

    private final MetricsEndpoint metrics;
    private final Optional<ServerAdmissions> admission;
    private final ProxyServer server;
    private final ConfigReloader reloader;

    private RunningProxy(MetricsEndpoint metrics, Optional<ServerAdmissions> admission, ProxyServer server,
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
        Optional<ServerAdmissions> admission = Optional.empty();
        AtomicReference<ConfigReloader> reloader = new AtomicReference<>();
        ProxyServer server;
        try {
            CurrentConfig current = new CurrentConfig(config);
            CurrentEstimator estimator = new CurrentEstimator(config.estimator().coefficients());
            admission = admission(config, current, estimator, metrics);
            Optional<ServerAdmissions> servers = admission;
            AdmissionRouting routing = servers.isPresent() ? servers.get()
                    : AdmissionRouting.uniform(new ImmediateAdmission(), PostgresServer.defaultSupport());
            server = ProxyServer.start(config, Wings.BUILT_IN, routing, proxy -> {
                // Built here because both act on the server, and the server routes the console's logins.
                // A reload the server took also brings the estimator.coefficients in force.
                ConfigReloader changes = new ConfigReloader(current, file, new ConfigLoader(), next -> {
                    proxy.reconfigure(next);
                    estimator.use(next.estimator().coefficients());
                }, settings -> servers.ifPresent(s -> s.all().forEach(c -> c.gateways().reconfigure(settings))),
                        Instant::now);
                // A database now routed elsewhere has that server's catalog: read it now, where the
                // configuration in force (which the reads follow) routes it.
                changes.afterReload((before, next) -> {
                    if (!next.backends().equals(before.backends())) {
                        servers.ifPresent(s -> s.all().forEach(c -> c.catalogs().refreshAll()));
                        // A backend the reload added gets its admission now, not on its first session's loop.
                        servers.ifPresent(s -> next.backends().forEach(backend -> s.control(backend.name())));
                    }
                });
                reloader.set(changes);
                return new AdminConsole(changes, servers, estimator, proxy, Clock.systemUTC());
            });
        } catch (Exception | Error e) {
            Optional.ofNullable(reloader.get()).ifPresent(ConfigReloader::close);
            admission.ifPresent(ServerAdmissions::close);
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

    /**
     * The admission of each backend's server, when admission is enabled: its gateways, its broker (polling
     * from now on when it has a monitor) and catalog reader, and its meters tagged with its name.
     */
    private static Optional<ServerAdmissions> admission(MemogateConfig config, CurrentConfig current,
                                                        CurrentEstimator estimator, MetricsEndpoint metrics) {
        if (!config.admission().enabled()) {
            return Optional.empty();
        }
        EstimatorMeters estimatorMeters = new EstimatorMeters(estimator::statistics);
        metrics.bind(estimatorMeters);
        ServerAdmissions servers = new ServerAdmissions(
                name -> serverAdmission(name, current, estimator, estimatorMeters, metrics),
                PostgresLexicalRules.analyzer(),
                config.backends().stream().map(BackendConfig::name).toList());
        // The proxy serves whatever the brokers' state: it only says how sure each server's target is.
        metrics.addHealthCheck(() -> Health.UP.with("broker", brokerModes(servers)));
        return Optional.of(servers);
    }

    /**
     * One server's admission, started. Its settings are read from the configuration in force when it starts
     * (a backend a reload added starts with its first session); its catalogs are read where that
     * configuration, and every later one, puts the backend.
     */
    private static AdmissionControl serverAdmission(String name, CurrentConfig current, CurrentEstimator estimator,
                                                    EstimatorMeters estimatorMeters, MetricsEndpoint metrics) {
        MemogateConfig config = current.get();
        GatewayMeters gatewayMeters = new GatewayMeters(name);
        ServerKind kind = Wings.kindOf(config, name);
        boolean postgres = kind == PostgresServer.KIND;
        // Each kind reads its own catalog with the monitoring role: PostgreSQL's indexes, views and routines, a
        // MySQL server's table statistics, which its join search is priced by; a SQL Server's none.
        ServerCatalogs catalogs = postgres ? config.broker().monitor()
                .<ServerCatalogs>map(m -> new IndexCatalogs(database -> current.get().catalogUrl(name, database),
                        m.user(), m.password().orElse(null)))
                .orElse(ServerCatalogs.NONE)
                : kind == MySqlServer.KIND ? config.brokerSettings(name)
                        .<ServerCatalogs>map(b -> new MySqlCatalogs(b.jdbcUrl(), b.user(), b.password()))
                        .orElse(ServerCatalogs.NONE)
                : ServerCatalogs.NONE;
        AdmissionControl control = AdmissionControl.builder(name, kind, config.admission().gatewaySettings())
                .estimator(postgres ? estimator : kind == MySqlServer.KIND
                        ? new CurrentMySqlEstimator(() -> current.get().estimator().mysqlCoefficients())
                        : kind == TdsServer.KIND
                        ? TdsServer.estimator(() -> current.get().estimator().sqlserverCoefficients())
                        : kind.estimator())
                .catalogs(catalogs)
                .staticTargetBytes(config.broker().staticTargetBytes())
                .broker(config.brokerSettings(name))
                .waitNotice(() -> current.get().admission().waitNotice())
                .holdWhileRunning(() -> current.get().admission().holdWhileRunning())
                .gatewayListener(gatewayMeters)
                .estimates(estimatorMeters.recorder(name)::record)
                .statementRecords(() -> current.get().admission().statementRecords())
                .searchTiers(() -> current.get().admission().searchTiers())
                .degrade(() -> current.get().admission().degrade())
                .gateways(config.fleet().<AdmissionControl.GatewaysFactory>map(fleet ->
                                (settings, target, timer, listener, retention) ->
                                        new RedisGateways(fleet, name, settings, target, timer, listener,
                                                retention))
                        .orElse(AdmissionControl.GatewaysFactory.LOCAL))
                .build();
        if (!postgres) {
            estimatorMeters.add(control.estimator()::statistics); // PostgreSQL's is the one the meters read already
        }
        gatewayMeters.gateways(control.gateways());
        metrics.bind(gatewayMeters);
        metrics.bind(new BrokerMeters(name, control.gateways(), control.broker()));
        if (kind == TdsServer.KIND) { // the one kind of server that keeps compile gateways of its own
            control.broker().ifPresent(broker -> metrics.bind(new ServerGatewayMeters(name, broker)));
        }
        metrics.bind(new DegradeMeters(name, control.degradeCounts()));
        if (control.gateways() instanceof RedisGateways fleet) {
            metrics.bind(new FleetMeters(name, fleet::local, fleet::fleetSize,
                    control.broker().<Supplier<BrokerRole>>map(broker -> () -> broker.state().role())));
        }
        return control.start();
    }

    /** "live", or each server's mode ("main: live, reports: static") when there are several. */
    private static String brokerModes(ServerAdmissions servers) {
        List<AdmissionControl> all = servers.all();
        if (all.size() == 1) {
            return brokerMode(all.getFirst());
        }
        return all.stream().map(c -> c.server() + ": " + brokerMode(c)).collect(Collectors.joining(", "));
    }

    private static String brokerMode(AdmissionControl control) {
        return control.broker().map(broker -> broker.state().mode().name().toLowerCase(Locale.ROOT)).orElse("off");
    }

    public ProxyServer server() {
        return server;
    }

    public MetricsEndpoint metrics() {
        return metrics;
    }

    /** Each backend's admission, when admission is enabled. */
    public Optional<ServerAdmissions> admission() {
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
                admission.ifPresent(ServerAdmissions::close);
            } finally {
                metrics.close();
            }
        }
    }
}

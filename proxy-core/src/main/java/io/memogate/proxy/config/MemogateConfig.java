package io.memogate.proxy.config;

import io.memogate.broker.BrokerSettings;
import io.memogate.broker.redis.FleetSettings;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The whole proxy configuration: where it listens, where it forwards, its limits, its admin endpoint,
 * compile admission, the broker that sets the admission target, the estimator's coefficients, when
 * server connections are recycled, which socket transport drives it all, and the fleet whose Redis keeps
 * the gateways when several proxies stand in front of the same servers (empty: the gateways are this proxy's).
 *
 * <p>An instance is always valid: the constructor runs every rule of {@link ConfigValidator} (ranges,
 * unique names, routing, TLS files that exist) and throws {@link ConfigException} listing each problem
 * with its field path. The parts ({@link ListenerConfig}, {@link BackendConfig}, ...) check only that
 * nothing is null, because whether a part is right often depends on its siblings (one default backend,
 * no database routed twice) and a message should name the path, {@code backends[1].port}, which only the
 * whole knows. A reload builds a new instance and swaps it in whole; nothing here is mutable.
 */
public record MemogateConfig(List<ListenerConfig> listeners, List<BackendConfig> backends, LimitsConfig limits,
                             AdminConfig admin, AdmissionConfig admission, BrokerConfig broker,
                             EstimatorConfig estimator, RecycleConfig recycle, NetworkConfig network,
                             Optional<FleetSettings> fleet) {

    public MemogateConfig {
        listeners = List.copyOf(listeners);
        backends = List.copyOf(backends);
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(admin, "admin");
        Objects.requireNonNull(admission, "admission");
        Objects.requireNonNull(broker, "broker");
        Objects.requireNonNull(estimator, "estimator");
        Objects.requireNonNull(recycle, "recycle");
        Objects.requireNonNull(network, "network");
        Objects.requireNonNull(fleet, "fleet");
        Problems problems = new Problems();
        ConfigValidator.validate(listeners, backends, limits, admin, admission, broker, network, problems);
        problems.throwIfAny(null);
    }

    /** Without a fleet, as a file without that section gets. */
    public MemogateConfig(List<ListenerConfig> listeners, List<BackendConfig> backends, LimitsConfig limits,
                          AdminConfig admin, AdmissionConfig admission, BrokerConfig broker, EstimatorConfig estimator,
                          RecycleConfig recycle, NetworkConfig network) {
        this(listeners, backends, limits, admin, admission, broker, estimator, recycle, network, Optional.empty());
    }

    /** With the default network section, as a file without it gets. */
    public MemogateConfig(List<ListenerConfig> listeners, List<BackendConfig> backends, LimitsConfig limits,
                          AdminConfig admin, AdmissionConfig admission, BrokerConfig broker, EstimatorConfig estimator,
                          RecycleConfig recycle) {
        this(listeners, backends, limits, admin, admission, broker, estimator, recycle, NetworkConfig.DEFAULTS);
    }

    /** With the default recycle and network sections, as a file without them gets. */
    public MemogateConfig(List<ListenerConfig> listeners, List<BackendConfig> backends, LimitsConfig limits,
                          AdminConfig admin, AdmissionConfig admission, BrokerConfig broker, EstimatorConfig estimator) {
        this(listeners, backends, limits, admin, admission, broker, estimator, RecycleConfig.DEFAULTS);
    }

    /** With the default estimator and recycle sections, as a file without them gets. */
    public MemogateConfig(List<ListenerConfig> listeners, List<BackendConfig> backends, LimitsConfig limits,
                          AdminConfig admin, AdmissionConfig admission, BrokerConfig broker) {
        this(listeners, backends, limits, admin, admission, broker, EstimatorConfig.DEFAULTS);
    }

    /** With the default admission and broker sections, as a file without them gets. */
    public MemogateConfig(List<ListenerConfig> listeners, List<BackendConfig> backends, LimitsConfig limits,
                          AdminConfig admin) {
        this(listeners, backends, limits, admin, AdmissionConfig.DEFAULTS, BrokerConfig.DEFAULTS);
    }

    /** With the default admin, admission and broker sections, as a file without them gets. */
    public MemogateConfig(List<ListenerConfig> listeners, List<BackendConfig> backends, LimitsConfig limits) {
        this(listeners, backends, limits, AdminConfig.DEFAULTS);
    }

    /** One default listener (127.0.0.1:6432), default limits, admin, admission and broker, and {@code backends}. */
    public static MemogateConfig of(BackendConfig... backends) {
        return new MemogateConfig(List.of(ListenerConfig.defaults()), List.of(backends), LimitsConfig.DEFAULTS);
    }

    public MemogateConfig withListeners(ListenerConfig... listeners) {
        return new MemogateConfig(List.of(listeners), backends, limits, admin, admission, broker, estimator, recycle, network, fleet);
    }

    public MemogateConfig withBackends(BackendConfig... backends) {
        return new MemogateConfig(listeners, List.of(backends), limits, admin, admission, broker, estimator, recycle, network, fleet);
    }

    public MemogateConfig withLimits(LimitsConfig limits) {
        return new MemogateConfig(listeners, backends, limits, admin, admission, broker, estimator, recycle, network, fleet);
    }

    public MemogateConfig withAdmin(AdminConfig admin) {
        return new MemogateConfig(listeners, backends, limits, admin, admission, broker, estimator, recycle, network, fleet);
    }

    public MemogateConfig withAdmission(AdmissionConfig admission) {
        return new MemogateConfig(listeners, backends, limits, admin, admission, broker, estimator, recycle, network, fleet);
    }

    public MemogateConfig withBroker(BrokerConfig broker) {
        return new MemogateConfig(listeners, backends, limits, admin, admission, broker, estimator, recycle, network, fleet);
    }

    public MemogateConfig withEstimator(EstimatorConfig estimator) {
        return new MemogateConfig(listeners, backends, limits, admin, admission, broker, estimator, recycle, network, fleet);
    }

    public MemogateConfig withRecycle(RecycleConfig recycle) {
        return new MemogateConfig(listeners, backends, limits, admin, admission, broker, estimator, recycle, network, fleet);
    }

    public MemogateConfig withNetwork(NetworkConfig network) {
        return new MemogateConfig(listeners, backends, limits, admin, admission, broker, estimator, recycle, network, fleet);
    }

    public MemogateConfig withFleet(Optional<FleetSettings> fleet) {
        return new MemogateConfig(listeners, backends, limits, admin, admission, broker, estimator, recycle, network, fleet);
    }

    /**
     * The broker's settings for the backend {@code broker.monitor} names, else the default backend, else the
     * first: {@link #brokerSettings(String)} of that backend. Empty without a monitor.
     */
    public Optional<BrokerSettings> brokerSettings() {
        return broker.monitor().flatMap(monitor -> monitor.backend()
                .or(() -> defaultBackend().or(() -> backends.stream().findFirst()).map(BackendConfig::name))
                .flatMap(this::brokerSettings));
    }

    /**
     * The broker's settings for the server of backend {@code server}: every backend's server is watched with
     * {@code broker.monitor}'s role, unless {@code broker.monitor.backend} names one, and then only that one
     * (the others keep the static target). Empty without a monitor, or for a backend not configured.
     */
    public Optional<BrokerSettings> brokerSettings(String server) {
        return broker.monitor()
                .filter(monitor -> monitor.backend().map(server::equals).orElse(true))
                .flatMap(monitor -> backend(server))
                .flatMap(backend -> broker.settingsFor(backend, protocolOf(server)));
    }

    /**
     * Whether backend {@code server} is a MySQL or MariaDB server: the default backend when a listener speaks the
     * MySQL protocol (such a listener routes every session there). Every other backend is a PostgreSQL server.
     */
    public boolean servesMySql(String server) {
        return servesDefault(Protocol.MYSQL, server);
    }

    /** The protocol backend {@code server} speaks: its listener's when it is a mysql or tds listener's default. */
    private Protocol protocolOf(String server) {
        return servesTds(server) ? Protocol.TDS : servesMySql(server) ? Protocol.MYSQL : Protocol.POSTGRESQL;
    }

    /** Whether backend {@code server} is a SQL Server: the default backend when a listener speaks TDS. */
    public boolean servesTds(String server) {
        return servesDefault(Protocol.TDS, server);
    }

    private boolean servesDefault(Protocol protocol, String server) {
        return listeners.stream().anyMatch(l -> l.protocol() == protocol)
                && defaultBackend().map(BackendConfig::name).filter(server::equals).isPresent();
    }

    /**
     * Where to read {@code database}'s catalog on the server of backend {@code server} with {@code
     * broker.monitor}'s role, TLS as the proxy uses toward it. Empty without a monitor or such a backend.
     */
    public Optional<String> catalogUrl(String server, String database) {
        return broker.monitor().flatMap(monitor -> backend(server).map(b -> BrokerConfig.jdbcUrl(b, database)));
    }

    /** The backend named {@code name}, if one is configured. */
    public Optional<BackendConfig> backend(String name) {
        return backends.stream().filter(b -> b.name().equals(name)).findFirst();
    }

    /**
     * Where to read {@code database}'s index catalog with {@code broker.monitor}'s role: the JDBC URL of the
     * server of the backend that serves it, TLS as the proxy uses toward it. Empty without a monitor or a
     * backend for the database.
     */
    public Optional<String> catalogUrl(String database) {
        return broker.monitor().flatMap(monitor -> backendFor(database).map(b -> BrokerConfig.jdbcUrl(b, database)));
    }

    /**
     * The backend that serves {@code database}: the one that lists it (validation guarantees at most
     * one does), else the default backend, else none, in which case the client is told the database is
     * not served here. A linear scan: it runs once per client connection over a handful of backends.
     */
    public Optional<BackendConfig> backendFor(String database) {
        Objects.requireNonNull(database, "database");
        Optional<BackendConfig> listing = backends.stream().filter(b -> b.lists(database)).findFirst();
        return listing.isPresent() ? listing : defaultBackend();
    }

    /** The backend that takes databases no backend lists, if one is marked default. */
    public Optional<BackendConfig> defaultBackend() {
        return backends.stream().filter(BackendConfig::isDefault).findFirst();
    }
}

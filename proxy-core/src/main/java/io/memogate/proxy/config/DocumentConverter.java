package io.memogate.proxy.config;

import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.broker.gateway.TierSettings;
import io.memogate.broker.redis.FleetSettings;
import io.memogate.estimator.mysql.MySqlCoefficients;
import io.memogate.estimator.sqlserver.SqlServerCoefficients;
import io.memogate.estimator.postgres.MemoryCoefficients;
import io.memogate.proxy.admission.DegradePolicy;
import io.memogate.proxy.admission.SearchTiers;
import io.memogate.proxy.calibrate.InvalidCoefficientsException;
import io.memogate.proxy.calibrate.mysql.MySqlCoefficientsFile;
import io.memogate.proxy.calibrate.sqlserver.SqlServerCoefficientsFile;
import io.memogate.proxy.config.AuthFile;
import io.memogate.proxy.postgres.calibrate.CoefficientsFile;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Turns the bound {@link ConfigDocument} into records: applies defaults, parses numbers, sizes,
 * durations, booleans, TLS modes and transports, and resolves relative paths against the configuration file's
 * directory. A value that cannot be parsed is recorded as a problem and replaced by its default, so
 * that the validator can still check everything else; the problems make sure such a result is never
 * used.
 */
final class DocumentConverter {

    private final Problems problems;
    private final ConfigValues values;

    DocumentConverter(Path baseDirectory, Problems problems) {
        this.problems = problems;
        this.values = new ConfigValues(baseDirectory, problems);
    }

    List<ListenerConfig> listeners(List<ConfigDocument.Listener> listeners) {
        if (listeners == null) { // key left out, or given no value: one listener on the default address
            return List.of(ListenerConfig.defaults());
        }
        return convertAll("listeners", listeners, this::listener,
                // Port 0 is never reported as a duplicate address, so the stand-in adds no problem.
                ListenerConfig.of(ListenerConfig.DEFAULT_HOST, 0));
    }

    List<BackendConfig> backends(List<ConfigDocument.Backend> backends) {
        if (backends == null) {
            problems.add("backends", "backends is required: name at least one backend (name, host)");
            return List.of();
        }
        return convertAll("backends", backends, this::backend,
                // Its own problems (no name, unreachable) are under the reported path and so dropped.
                new BackendConfig("", "", BackendConfig.DEFAULT_PORT, List.of(), false, BackendTlsConfig.DEFAULT));
    }

    LimitsConfig limits(ConfigDocument.Limits limits) {
        if (limits == null) {
            return LimitsConfig.DEFAULTS;
        }
        String path = "limits.";
        long messageBytes = values.parse(path + "maxMessageBytes", limits.maxMessageBytes, ByteSize::parse,
                ByteSize.ofBytes(LimitsConfig.DEFAULT_MAX_MESSAGE_BYTES)).bytes();
        if (messageBytes > Integer.MAX_VALUE) {
            ConfigValidator.checkMaxMessageBytes(problems, path + "maxMessageBytes", messageBytes);
            messageBytes = LimitsConfig.DEFAULT_MAX_MESSAGE_BYTES;
        }
        Duration connectTimeout = values.duration(path + "connectTimeout", limits.connectTimeout,
                LimitsConfig.DEFAULT_CONNECT_TIMEOUT);
        Duration shutdownTimeout = values.duration(path + "shutdownTimeout", limits.shutdownTimeout,
                LimitsConfig.DEFAULT_SHUTDOWN_TIMEOUT);
        long connections = values.whole(path + "maxClientConnections", limits.maxClientConnections,
                LimitsConfig.DEFAULT_MAX_CLIENT_CONNECTIONS);
        if (connections != (int) connections) {
            ConfigValidator.checkMaxClientConnections(problems, path + "maxClientConnections", connections);
            connections = LimitsConfig.DEFAULT_MAX_CLIENT_CONNECTIONS;
        }
        Duration loginTimeout = values.duration(path + "loginTimeout", limits.loginTimeout, LimitsConfig.DEFAULT_LOGIN_TIMEOUT);
        return new LimitsConfig((int) messageBytes, connectTimeout, shutdownTimeout, (int) connections, loginTimeout);
    }

    AdminConfig admin(ConfigDocument.Admin admin) {
        if (admin == null) {
            return AdminConfig.DEFAULTS;
        }
        AdminHttpConfig httpConfig = AdminHttpConfig.DEFAULTS;
        if (admin.http != null) {
            ConfigDocument.AdminHttp http = admin.http;
            String host = http.host == null ? AdminHttpConfig.DEFAULT_HOST : http.host;
            int port = values.port("admin.http.port", http.port, AdminHttpConfig.DEFAULT_PORT, 0);
            boolean enabled = values.parse("admin.http.enabled", http.enabled, ConfigValues::bool, true);
            httpConfig = new AdminHttpConfig(host, port, enabled);
        }
        List<String> users = admin.users == null ? List.of()
                : admin.users.stream().map(u -> u == null ? "" : u).toList();
        String authDatabase = admin.authDatabase == null ? AdminConfig.DEFAULT_AUTH_DATABASE : admin.authDatabase;
        Duration watchInterval = values.duration("admin.watchInterval", admin.watchInterval, AdminConfig.DEFAULT_WATCH_INTERVAL);
        return new AdminConfig(httpConfig, users, authDatabase, watchInterval);
    }

    AdmissionConfig admission(ConfigDocument.Admission admission) {
        if (admission == null) {
            return AdmissionConfig.DEFAULTS;
        }
        String path = "admission.";
        boolean enabled = values.parse(path + "enabled", admission.enabled, ConfigValues::bool, true);
        Duration waitNotice = values.duration(path + "waitNotice", admission.waitNotice, AdmissionConfig.DEFAULT_WAIT_NOTICE);
        Duration holdWhileRunning = values.duration(path + "holdWhileRunning", admission.holdWhileRunning,
                AdmissionConfig.DEFAULT_HOLD_WHILE_RUNNING);
        long cpus = values.whole(path + "cpus", admission.cpus, AdmissionConfig.DEFAULTS.cpus());
        if (!ConfigValidator.checkCpus(problems, path + "cpus", cpus)) {
            cpus = AdmissionConfig.DEFAULTS.cpus();
        }
        // The tiers' defaults follow cpus: a file that sets only cpus gets limits 4 x cpus, cpus and 1.
        GatewaySettings defaults = GatewaySettings.defaults((int) cpus);
        long threshold = values.parse(path + "staticThreshold", admission.staticThreshold, ByteSize::parse,
                ByteSize.ofBytes(defaults.staticThresholdBytes())).bytes();
        long records = values.whole(path + "statementRecords", admission.statementRecords, 0);
        if (!ConfigValidator.checkStatementRecords(problems, path + "statementRecords", records)) {
            records = 0;
        }
        ConfigDocument.Tiers tiers = admission.tiers == null ? new ConfigDocument.Tiers() : admission.tiers;
        ConfigDocument.LargeTier large = tiers.large;
        return new AdmissionConfig(enabled, waitNotice, holdWhileRunning, (int) cpus, new GatewaySettings(threshold,
                tier(path + "tiers.small", tiers.small, defaults.small()),
                tier(path + "tiers.medium", tiers.medium, defaults.medium()),
                large == null ? defaults.large()
                        : tier(path + "tiers.large", large.limit, null, large.maxQueue, large.timeout, defaults.large())),
                (int) records, searchTiers(admission.search), degrade(admission.degrade));
    }

    /** Each time must be positive and none smaller than the one before: a longer search never takes fewer tiers. */
    private SearchTiers searchTiers(ConfigDocument.Search search) {
        if (search == null) {
            return SearchTiers.DEFAULTS;
        }
        String path = "admission.search.";
        SearchTiers defaults = SearchTiers.DEFAULTS;
        Duration small = values.duration(path + "small", search.small, defaults.small());
        Duration medium = values.duration(path + "medium", search.medium, defaults.medium());
        Duration large = values.duration(path + "large", search.large, defaults.large());
        boolean right = true;
        if (!small.isPositive()) {
            problems.add(path + "small", path + "small must be > 0, was " + Durations.format(small));
            right = false;
        }
        if (medium.compareTo(small) < 0) {
            problems.add(path + "medium", path + "medium must be at least " + path + "small ("
                    + Durations.format(small) + "), was " + Durations.format(medium));
            right = false;
        }
        if (large.compareTo(medium) < 0) {
            problems.add(path + "large", path + "large must be at least " + path + "medium ("
                    + Durations.format(medium) + "), was " + Durations.format(large));
            right = false;
        }
        return right ? new SearchTiers(small, medium, large) : defaults;
    }

    private DegradePolicy degrade(ConfigDocument.Degrade degrade) {
        if (degrade == null) {
            return DegradePolicy.OFF;
        }
        boolean enabled = values.parse("admission.degrade.enabled", degrade.enabled, ConfigValues::bool, false);
        Optional<Duration> after = Optional.ofNullable(values.duration("admission.degrade.after", degrade.after, null));
        return new DegradePolicy(enabled, names(degrade.roles), names(degrade.applicationNames), after);
    }

    private static Set<String> names(List<String> names) {
        return names == null ? Set.of() : names.stream().map(n -> n == null ? "" : n).collect(Collectors.toSet());
    }

    BrokerConfig broker(ConfigDocument.Broker broker) {
        if (broker == null) {
            return BrokerConfig.DEFAULTS;
        }
        String path = "broker.";
        BrokerConfig defaults = BrokerConfig.DEFAULTS;
        Optional<MonitorConfig> monitor = Optional.ofNullable(broker.monitor).map(m -> new MonitorConfig(
                orEmpty(m.user), Optional.ofNullable(m.password),
                m.database == null ? MonitorConfig.DEFAULT_DATABASE : m.database, Optional.ofNullable(m.backend)));
        Duration interval = values.duration(path + "interval", broker.interval, defaults.interval());
        Duration gracePeriod = values.duration(path + "gracePeriod", broker.gracePeriod, defaults.gracePeriod());
        double compileShare = values.parse(path + "compileShare", broker.compileShare, ConfigValues::decimal,
                defaults.compileShare());
        ByteSize hostMemory = values.parse(path + "hostMemory", broker.hostMemory, ByteSize::parse, null);
        boolean coLocated = values.parse(path + "coLocated", broker.coLocated, ConfigValues::bool, defaults.coLocated());
        long staticTarget = values.parse(path + "staticTarget", broker.staticTarget, ByteSize::parse,
                ByteSize.ofBytes(defaults.staticTargetBytes())).bytes();
        long minimumTarget = values.parse(path + "minimumTarget", broker.minimumTarget, ByteSize::parse,
                ByteSize.ofBytes(defaults.minimumTargetBytes())).bytes();
        return new BrokerConfig(monitor, interval, gracePeriod, compileShare,
                hostMemory == null ? OptionalLong.empty() : OptionalLong.of(hostMemory.bytes()), coLocated,
                staticTarget, minimumTarget);
    }

    /**
     * The coefficients file is read here, so that a file that is missing or not a coefficients file is
     * reported with the rest of the configuration's problems, at start and on reload alike.
     */
    EstimatorConfig estimator(ConfigDocument.Estimator estimator) {
        if (estimator == null) {
            return EstimatorConfig.DEFAULTS;
        }
        EstimatorConfig defaults = EstimatorConfig.DEFAULTS;
        String path = "estimator.coefficients";
        Optional<Path> file = values.optionalPath(path, estimator.coefficients);
        MemoryCoefficients coefficients = coefficients(path, file, CoefficientsFile::read, defaults.coefficients());
        String mysqlPath = "estimator.mysqlCoefficients";
        Optional<Path> mysqlFile = values.optionalPath(mysqlPath, estimator.mysqlCoefficients);
        MySqlCoefficients mysql = coefficients(mysqlPath, mysqlFile, MySqlCoefficientsFile::read,
                defaults.mysqlCoefficients());
        String sqlserverPath = "estimator.sqlserverCoefficients";
        Optional<Path> sqlserverFile = values.optionalPath(sqlserverPath, estimator.sqlserverCoefficients);
        SqlServerCoefficients sqlserver = coefficients(sqlserverPath, sqlserverFile, SqlServerCoefficientsFile::read,
                defaults.sqlserverCoefficients());
        return new EstimatorConfig(file, coefficients, mysqlFile, mysql, sqlserverFile, sqlserver);
    }

    /** What {@code file} holds, read by {@code reader}; {@code otherwise} when there is none, or it is wrong. */
    private <C> C coefficients(String path, Optional<Path> file, Function<Path, C> reader, C otherwise) {
        if (file.isEmpty()) {
            return otherwise;
        }
        try {
            return reader.apply(file.get());
        } catch (InvalidCoefficientsException e) {
            problems.add(path, path + ": " + e.getMessage());
            return otherwise;
        }
    }

    /** The auth file is read here, like the coefficients file, so its problems are reported with the rest. */
    RecycleConfig recycle(ConfigDocument.Recycle recycle) {
        if (recycle == null) {
            return RecycleConfig.DEFAULTS;
        }
        long retainedAbove = values.parse("recycle.retainedAbove", recycle.retainedAbove, ByteSize::parse,
                ByteSize.ofBytes(RecycleConfig.DEFAULT_RETAINED_ABOVE_BYTES)).bytes();
        String path = "recycle.authFile";
        Optional<Path> file = values.optionalPath(path, recycle.authFile);
        if (file.isEmpty()) {
            return new RecycleConfig(retainedAbove, file, AuthFile.EMPTY);
        }
        try {
            return new RecycleConfig(retainedAbove, file, AuthFile.read(file.get()));
        } catch (NoSuchFileException e) {
            problems.add(path, path + ": " + file.get() + ": file not found");
        } catch (IOException e) {
            problems.add(path, path + ": " + file.get() + ": cannot be read: " + e);
        } catch (IllegalArgumentException e) {
            problems.add(path, path + ": " + file.get() + " " + e.getMessage());
        }
        return new RecycleConfig(retainedAbove, Optional.empty(), AuthFile.EMPTY);
    }

    NetworkConfig network(ConfigDocument.Network network) {
        if (network == null) {
            return NetworkConfig.DEFAULTS;
        }
        NetworkTransport transport = values.parse("network.transport", network.transport,
                ConfigValues.oneOf(NetworkTransport::fromConfigName, NetworkTransport.configNames()), NetworkConfig.DEFAULTS.transport());
        long eventLoops = values.whole("network.eventLoops", network.eventLoops, NetworkConfig.DEFAULTS.eventLoops());
        if (!ConfigValidator.checkEventLoops(problems, "network.eventLoops", eventLoops)) {
            eventLoops = NetworkConfig.DEFAULTS.eventLoops();
        }
        return new NetworkConfig(transport, (int) eventLoops, keepalive(network.keepalive));
    }

    /** Empty without a fleet section: the gateways are this proxy's own. */
    Optional<FleetSettings> fleet(ConfigDocument.Fleet fleet) {
        if (fleet == null) {
            return Optional.empty();
        }
        if ((fleet.redis == null) == (fleet.sentinel == null) || fleet.name == null) {
            problems.add("fleet", "fleet needs one of redis (redis://host:port) or sentinel"
                    + " (redis-sentinel://host:26379,host2:26379#primary), and name (the fleet's, the same on every"
                    + " proxy in front of the same servers)");
            return Optional.empty();
        }
        if (fleet.sentinel != null && !fleet.sentinel.startsWith(FleetSettings.SENTINEL_SCHEME)) {
            problems.add("fleet.sentinel", "fleet.sentinel must be a redis-sentinel:// URI naming the Sentinels and,"
                    + " after '#', the primary they watch, was '" + fleet.sentinel + "'");
            return Optional.empty();
        }
        if (fleet.redis != null && fleet.redis.startsWith(FleetSettings.SENTINEL_SCHEME)) {
            problems.add("fleet.redis", "fleet.redis names one Redis; Sentinels go in fleet.sentinel");
            return Optional.empty();
        }
        Duration lease = values.duration("fleet.lease", fleet.lease, FleetSettings.DEFAULT_LEASE);
        Duration poll = values.duration("fleet.pollInterval", fleet.pollInterval, FleetSettings.DEFAULT_POLL_INTERVAL);
        try {
            return Optional.of(new FleetSettings(fleet.redis != null ? fleet.redis : fleet.sentinel, fleet.name,
                    lease, poll));
        } catch (IllegalArgumentException e) {
            problems.add("fleet", e.getMessage());
            return Optional.empty();
        }
    }

    private TcpKeepalive keepalive(ConfigDocument.Keepalive keepalive) {
        if (keepalive == null) {
            return TcpKeepalive.SYSTEM_DEFAULTS;
        }
        String path = "network.keepalive.";
        Duration idle = values.duration(path + "idle", keepalive.idle, Duration.ZERO);
        Duration interval = values.duration(path + "interval", keepalive.interval, Duration.ZERO);
        long count = values.whole(path + "count", keepalive.count, 0);
        if (count != (int) count) {
            ConfigValidator.checkKeepaliveCount(problems, path + "count", count);
            count = 0;
        }
        return new TcpKeepalive(idle, interval, (int) count);
    }

    private TierSettings tier(String path, ConfigDocument.Tier doc, TierSettings defaults) {
        return doc == null ? defaults : tier(path, doc.limit, doc.fraction, doc.maxQueue, doc.timeout, defaults);
    }

    /**
     * Each value the file leaves out is the default tier's. Out-of-range values are reported here, with
     * their path, because GatewaySettings would refuse them; the tier is then replaced by its default.
     */
    private TierSettings tier(String path, String limitText, String fractionText, String maxQueueText,
                              String timeoutText, TierSettings defaults) {
        long limit = values.whole(path + ".limit", limitText, defaults.limit());
        double fraction = values.parse(path + ".fraction", fractionText, ConfigValues::decimal, defaults.fraction());
        long maxQueue = values.whole(path + ".maxQueue", maxQueueText, defaults.maxQueue());
        Duration timeout = values.duration(path + ".timeout", timeoutText, defaults.timeout());
        if (!ConfigValidator.checkTier(problems, path, limit, fraction, maxQueue, timeout)) {
            return defaults;
        }
        return new TierSettings((int) limit, fraction, (int) maxQueue, timeout);
    }

    private ListenerConfig listener(String path, ConfigDocument.Listener doc) {
        String host = doc.host == null ? ListenerConfig.DEFAULT_HOST : doc.host;
        int port = values.port(path + ".port", doc.port, ListenerConfig.DEFAULT_PORT, 0);
        Optional<ServerTlsConfig> tls = Optional.empty();
        if (doc.tls != null) {
            Optional<Path> certificate = values.requiredPath(path + ".tls.certificate", doc.tls.certificate);
            Optional<Path> privateKey = values.requiredPath(path + ".tls.privateKey", doc.tls.privateKey);
            if (certificate.isPresent() && privateKey.isPresent()) {
                tls = Optional.of(new ServerTlsConfig(certificate.get(), privateKey.get()));
            }
        }
        Protocol protocol = values.parse(path + ".protocol", doc.protocol, ConfigValues.oneOf(Protocol::fromConfigName, Protocol.configNames()),
                Protocol.POSTGRESQL);
        return new ListenerConfig(host, port, tls, protocol);
    }

    private BackendConfig backend(String path, ConfigDocument.Backend doc) {
        List<String> databases = doc.databases == null ? List.of()
                : doc.databases.stream().map(d -> d == null ? "" : d).toList();
        int port = values.port(path + ".port", doc.port, BackendConfig.DEFAULT_PORT, 1);
        // A backend that lists no databases can only be meant as the default.
        boolean isDefault = values.parse(path + ".default", doc.isDefault, ConfigValues::bool, databases.isEmpty());
        return new BackendConfig(orEmpty(doc.name), orEmpty(doc.host), port, databases, isDefault,
                backendTls(path + ".tls", doc.tls), backendTds(path + ".tds", doc.tds));
    }

    private BackendTdsConfig backendTds(String path, ConfigDocument.BackendTds doc) {
        if (doc == null) {
            return BackendTdsConfig.DEFAULT;
        }
        return new BackendTdsConfig(values.parse(path + ".followRouting", doc.followRouting, ConfigValues::bool,
                BackendTdsConfig.DEFAULT.followRouting()));
    }

    private BackendTlsConfig backendTls(String path, ConfigDocument.BackendTls doc) {
        if (doc == null) {
            return BackendTlsConfig.DEFAULT;
        }
        TlsMode mode = values.parse(path + ".mode", doc.mode, ConfigValues.oneOf(TlsMode::fromConfigName, TlsMode.configNames()), TlsMode.PREFER);
        return new BackendTlsConfig(mode, values.optionalPath(path + ".trustedCertificates", doc.trustedCertificates),
                Optional.ofNullable(doc.serverName), values.parse(path + ".strict", doc.strict, ConfigValues::bool, false));
    }

    /**
     * Converts each element; a null element (a bare "-" in YAML) is reported and replaced by a stand-in,
     * so that later elements keep their index in messages and the stand-in's own problems, being under
     * the reported path, are dropped.
     */
    private <D, R> List<R> convertAll(String path, List<D> docs, Converter<D, R> converter, R standIn) {
        List<R> result = new ArrayList<>(docs.size());
        for (int i = 0; i < docs.size(); i++) {
            String elementPath = path + "[" + i + "]";
            if (docs.get(i) == null) {
                problems.add(elementPath, elementPath + " is empty");
                result.add(standIn);
            } else {
                result.add(converter.convert(elementPath, docs.get(i)));
            }
        }
        return result;
    }

    private static String orEmpty(String text) {
        return text == null ? "" : text;
    }

    @FunctionalInterface
    private interface Converter<D, R> {
        R convert(String path, D doc);
    }
}

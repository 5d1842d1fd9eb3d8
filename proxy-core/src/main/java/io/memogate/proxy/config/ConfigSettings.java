package io.memogate.proxy.config;

import io.memogate.broker.gateway.Tier;
import io.memogate.broker.gateway.TierSettings;
import io.memogate.broker.redis.FleetSettings;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * A configuration as the flat list of its settings, each under the path the YAML file spells it
 * ({@code admission.tiers.small.limit}) with its value written as the file would write it ({@code 30s},
 * {@code 64MiB}). The admin console shows it (SHOW CONFIG) and a reload compares two of them, so both
 * speak the file's language; passwords are masked.
 *
 * <p>Each setting also says how a running proxy takes a new value ({@link Applies}); that is decided here,
 * next to the keys, so that SHOW CONFIG, RELOAD and docs/operations.md ("Reloading the configuration") cannot drift apart.
 */
public final class ConfigSettings {

    /** How a changed value reaches a running proxy. */
    public enum Applies {
        /** At once, for everything in progress too (gateway sizes, console users, notices). */
        LIVE("live"),
        /** For sessions that start after the change; open sessions keep what they started with. */
        NEW_SESSIONS("new sessions"),
        /** Only by restarting the proxy (sockets bound, the broker's connection, the HTTP endpoint). */
        RESTART("restart");

        private final String label;

        Applies(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /** One setting: its path, its value as text (empty when unset), and how a change applies. */
    public record Setting(String key, String value, Applies applies) {}

    static final String MASK = "********";

    private final List<Setting> settings = new ArrayList<>();

    private ConfigSettings() {
    }

    /** Every setting of {@code config}, in the order of the example file. */
    public static List<Setting> of(MemogateConfig config) {
        ConfigSettings flat = new ConfigSettings();
        flat.listeners(config.listeners());
        flat.backends(config.backends());
        flat.limits(config.limits());
        flat.admin(config.admin());
        flat.admission(config.admission());
        flat.broker(config.broker());
        flat.estimator(config.estimator());
        flat.recycle(config.recycle());
        flat.network(config.network());
        config.fleet().ifPresent(flat::fleet);
        return List.copyOf(flat.settings);
    }

    private void listeners(List<ListenerConfig> listeners) {
        for (int i = 0; i < listeners.size(); i++) {
            ListenerConfig listener = listeners.get(i);
            String path = "listeners[" + i + "].";
            // A bound socket cannot move; its TLS context is handed to each new session.
            add(path + "host", listener.host(), Applies.RESTART);
            add(path + "port", listener.port(), Applies.RESTART);
            add(path + "protocol", listener.protocol(), Applies.RESTART);
            add(path + "tls.certificate", listener.tls().map(ServerTlsConfig::certificate), Applies.NEW_SESSIONS);
            add(path + "tls.privateKey", listener.tls().map(ServerTlsConfig::privateKey), Applies.NEW_SESSIONS);
        }
    }

    private void backends(List<BackendConfig> backends) {
        for (int i = 0; i < backends.size(); i++) {
            BackendConfig backend = backends.get(i);
            String path = "backends[" + i + "].";
            // Routing is looked up when a client connects: every backend setting is for new sessions.
            add(path + "name", backend.name(), Applies.NEW_SESSIONS);
            add(path + "host", backend.host(), Applies.NEW_SESSIONS);
            add(path + "port", backend.port(), Applies.NEW_SESSIONS);
            add(path + "databases", String.join(", ", backend.databases()), Applies.NEW_SESSIONS);
            add(path + "default", backend.isDefault(), Applies.NEW_SESSIONS);
            add(path + "tls.mode", backend.tls().mode().configName(), Applies.NEW_SESSIONS);
            add(path + "tls.trustedCertificates", backend.tls().trustedCertificates(), Applies.NEW_SESSIONS);
            add(path + "tls.serverName", backend.tls().serverName(), Applies.NEW_SESSIONS);
            add(path + "tls.strict", backend.tls().strict(), Applies.NEW_SESSIONS);
            add(path + "tds.followRouting", backend.tds().followRouting(), Applies.NEW_SESSIONS);
        }
    }

    private void limits(LimitsConfig limits) {
        add("limits.maxMessageBytes", ByteSize.ofBytes(limits.maxMessageBytes()), Applies.NEW_SESSIONS);
        add("limits.connectTimeout", limits.connectTimeout(), Applies.NEW_SESSIONS);
        add("limits.shutdownTimeout", limits.shutdownTimeout(), Applies.LIVE);
        add("limits.maxClientConnections", limits.maxClientConnections(), Applies.LIVE);
        add("limits.loginTimeout", limits.loginTimeout(), Applies.NEW_SESSIONS);
    }

    private void admin(AdminConfig admin) {
        add("admin.http.host", admin.http().host(), Applies.RESTART);
        add("admin.http.port", admin.http().port(), Applies.RESTART);
        add("admin.http.enabled", admin.http().enabled(), Applies.RESTART);
        add("admin.users", String.join(", ", admin.users()), Applies.LIVE);
        add("admin.authDatabase", admin.authDatabase(), Applies.LIVE);
        add("admin.watchInterval", admin.watchInterval(), Applies.RESTART);
    }

    private void admission(AdmissionConfig admission) {
        // Whether there are gateways at all is decided when the proxy starts.
        add("admission.enabled", admission.enabled(), Applies.RESTART);
        add("admission.waitNotice", admission.waitNotice(), Applies.LIVE);
        // Read as each statement asks for admission: those admitted before keep the hold they started with.
        add("admission.holdWhileRunning", admission.holdWhileRunning(), Applies.LIVE);
        // cpus only sizes the tiers a file leaves out; the tiers below carry its effect.
        add("admission.cpus", admission.cpus(), Applies.LIVE);
        add("admission.staticThreshold", ByteSize.ofBytes(admission.gatewaySettings().staticThresholdBytes()),
                Applies.LIVE);
        // Read as each statement is recorded: a smaller number forgets the oldest records, 0 all of them.
        add("admission.statementRecords", admission.statementRecords(), Applies.LIVE);
        // Read as each statement asks for admission.
        add("admission.degrade.enabled", admission.degrade().enabled(), Applies.LIVE);
        add("admission.degrade.roles", String.join(", ", new TreeSet<>(admission.degrade().roles())), Applies.LIVE);
        add("admission.degrade.applicationNames", String.join(", ", new TreeSet<>(admission.degrade().applicationNames())),
                Applies.LIVE);
        add("admission.degrade.after", admission.degrade().after().map(Durations::format).orElse(""), Applies.LIVE);
        for (Tier tier : Tier.values()) {
            // Read as each statement asks for admission.
            add("admission.search." + tier.configName(), admission.searchTiers().of(tier), Applies.LIVE);
        }
        for (Tier tier : Tier.values()) {
            TierSettings settings = admission.gatewaySettings().tier(tier);
            String path = "admission.tiers." + tier.configName() + ".";
            add(path + "limit", settings.limit(), Applies.LIVE);
            if (tier != Tier.LARGE) { // nothing comes after LARGE: the file has no large.fraction
                add(path + "fraction", number(settings.fraction()), Applies.LIVE);
            }
            add(path + "maxQueue", settings.maxQueue(), Applies.LIVE);
            add(path + "timeout", settings.timeout(), Applies.LIVE);
        }
    }

    private void broker(BrokerConfig broker) {
        // The broker and its connection are built once, at start.
        Optional<MonitorConfig> monitor = broker.monitor();
        add("broker.monitor.user", monitor.map(MonitorConfig::user), Applies.RESTART);
        add("broker.monitor.password", monitor.flatMap(MonitorConfig::password).map(p -> MASK), Applies.RESTART);
        add("broker.monitor.database", monitor.map(MonitorConfig::database), Applies.RESTART);
        add("broker.monitor.backend", monitor.flatMap(MonitorConfig::backend), Applies.RESTART);
        add("broker.interval", broker.interval(), Applies.RESTART);
        add("broker.gracePeriod", broker.gracePeriod(), Applies.RESTART);
        add("broker.compileShare", number(broker.compileShare()), Applies.RESTART);
        add("broker.hostMemory", broker.hostMemoryBytes().isPresent()
                ? ByteSize.ofBytes(broker.hostMemoryBytes().getAsLong()) : "", Applies.RESTART);
        add("broker.coLocated", broker.coLocated(), Applies.RESTART);
        add("broker.staticTarget", ByteSize.ofBytes(broker.staticTargetBytes()), Applies.RESTART);
        add("broker.minimumTarget", ByteSize.ofBytes(broker.minimumTargetBytes()), Applies.RESTART);
    }

    /**
     * The file's path and, after it, the coefficients it held when read: a reload that finds the same
     * path with new contents (a new calibration written over the old file) is a change too.
     */
    private void estimator(EstimatorConfig estimator) {
        add("estimator.coefficients", estimator.coefficientsFile().map(file -> file + " ("
                + Arrays.stream(estimator.coefficients().toArray()).mapToObj(ConfigSettings::number)
                        .collect(Collectors.joining(", ")) + ")"), Applies.LIVE);
        // Read at each statement of a MySQL server: its next statement takes them.
        add("estimator.mysqlCoefficients", estimator.mysqlCoefficientsFile().map(file -> file + " ("
                + estimator.mysqlCoefficients() + ")"), Applies.LIVE);
        // Read at each statement of a SQL Server too.
        add("estimator.sqlserverCoefficients", estimator.sqlserverCoefficientsFile().map(file -> file + " ("
                + estimator.sqlserverCoefficients() + ")"), Applies.LIVE);
    }

    /** The auth file's path and how many users it held when read; never a secret. */
    private void recycle(RecycleConfig recycle) {
        add("recycle.retainedAbove", ByteSize.ofBytes(recycle.retainedAboveBytes()), Applies.NEW_SESSIONS);
        add("recycle.authFile", recycle.authFile().map(file -> file + " (" + recycle.secrets().size() + " users)"),
                Applies.NEW_SESSIONS);
    }

    /** The event loops and every socket are made with the transport when the proxy starts. */
    private void network(NetworkConfig network) {
        add("network.transport", network.transport().configName(), Applies.RESTART);
        add("network.eventLoops", network.eventLoops(), Applies.RESTART);
        add("network.keepalive.idle", network.keepalive().idle(), Applies.RESTART);
        add("network.keepalive.interval", network.keepalive().interval(), Applies.RESTART);
        add("network.keepalive.count", network.keepalive().count(), Applies.RESTART);
    }

    /** Listed only when there is a fleet; the URI without the password it may hold. */
    private void fleet(FleetSettings fleet) {
        add(fleet.sentinel() ? "fleet.sentinel" : "fleet.redis",
                fleet.redisUri().replaceFirst("//[^@/]*@", "//" + MASK + "@"), Applies.RESTART);
        add("fleet.name", fleet.name(), Applies.RESTART);
        add("fleet.lease", fleet.lease(), Applies.RESTART);
        add("fleet.pollInterval", fleet.pollInterval(), Applies.RESTART);
    }

    private void add(String key, Object value, Applies applies) {
        settings.add(new Setting(key, text(value), applies));
    }

    private static String text(Object value) {
        return switch (value) {
            case Optional<?> optional -> optional.map(ConfigSettings::text).orElse("");
            case Duration duration -> Durations.format(duration);
            case Path path -> path.toString();
            default -> String.valueOf(value);
        };
    }

    /** "0.25", "1", not "1.0": as a user writes it. */
    private static String number(double value) {
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }
}

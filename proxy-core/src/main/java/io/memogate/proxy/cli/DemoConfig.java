package io.memogate.proxy.cli;

import io.memogate.proxy.config.AdminConfig;
import io.memogate.proxy.config.AdminHttpConfig;
import io.memogate.proxy.config.BackendConfig;
import io.memogate.proxy.config.BackendTlsConfig;
import io.memogate.proxy.config.BrokerConfig;
import io.memogate.proxy.config.LimitsConfig;
import io.memogate.proxy.config.ListenerConfig;
import io.memogate.proxy.config.MemogateConfig;
import io.memogate.proxy.config.MonitorConfig;
import io.memogate.proxy.config.Protocol;
import io.memogate.proxy.config.TlsMode;
import io.memogate.proxy.mysql.demo.MariaDbDemoSchema;
import io.memogate.proxy.postgres.embedded.DemoSchema;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * What {@code bin/memogate demo} runs: gateways on, the broker polling the server as {@link DemoSchema#MONITOR}
 * (co-located, so its processes are measured from /proc), catalogs read with that role, the metrics endpoint
 * and the console on; for {@code demo --server mariadb} the same with a {@code mysql} listener. The benchmarks
 * run the shipped proxy with the same, to measure what a user runs.
 */
public final class DemoConfig {

    static final String LOCALHOST = "127.0.0.1";

    private DemoConfig() {
    }

    /**
     * @param port the proxy's, on 127.0.0.1
     * @param metricsPort the metrics and health endpoint's, on 127.0.0.1
     * @param hostMemory the database host's memory; empty: the broker reads this machine's
     */
    public static MemogateConfig of(String postgresHost, int postgresPort, int port, int metricsPort,
                                    Optional<Long> hostMemory) {
        // The broker watches the embedded server with its own login, and measures its processes from /proc.
        MonitorConfig monitor = MonitorConfig.of(DemoSchema.MONITOR).withPassword(DemoSchema.MONITOR_PASSWORD);
        return new MemogateConfig(List.of(new ListenerConfig(LOCALHOST, port, Optional.empty())),
                List.of(backend(postgresHost, postgresPort)), limits(),
                // The demo's user may use the admin console: psql .../memogate, then SHOW TIERS.
                new AdminConfig(AdminHttpConfig.of(LOCALHOST, metricsPort)).withUsers(DemoSchema.OWNER))
                .withBroker(broker(monitor, hostMemory));
    }

    /**
     * The same for a MariaDB on {@code mariadbPort} of 127.0.0.1 with {@link MariaDbDemoSchema}: a {@code mysql}
     * listener, the broker polling the server with the MySQL probe as {@link MariaDbDemoSchema#MONITOR}; the demo's
     * user may use the admin console: mariadb ... memogate, then SHOW TIERS.
     */
    public static MemogateConfig mariaDb(int mariadbPort, int port, int metricsPort, Optional<Long> hostMemory) {
        MonitorConfig monitor = MonitorConfig.of(MariaDbDemoSchema.MONITOR)
                .withPassword(MariaDbDemoSchema.MONITOR_PASSWORD).withDatabase(MariaDbDemoSchema.DATABASE);
        return new MemogateConfig(List.of(ListenerConfig.of(LOCALHOST, port).withProtocol(Protocol.MYSQL)),
                List.of(backend(LOCALHOST, mariadbPort)), limits(),
                new AdminConfig(AdminHttpConfig.of(LOCALHOST, metricsPort)).withUsers(MariaDbDemoSchema.OWNER))
                .withBroker(broker(monitor, hostMemory));
    }

    private static BackendConfig backend(String host, int port) {
        return new BackendConfig("demo", host, port, List.of(), true, BackendTlsConfig.of(TlsMode.DISABLE));
    }

    private static LimitsConfig limits() {
        return new LimitsConfig(LimitsConfig.DEFAULT_MAX_MESSAGE_BYTES, LimitsConfig.DEFAULT_CONNECT_TIMEOUT,
                Duration.ofSeconds(2), LimitsConfig.DEFAULT_MAX_CLIENT_CONNECTIONS, LimitsConfig.DEFAULT_LOGIN_TIMEOUT);
    }

    private static BrokerConfig broker(MonitorConfig monitor, Optional<Long> hostMemory) {
        BrokerConfig broker = BrokerConfig.DEFAULTS.withCoLocated(true).withMonitor(monitor);
        return hostMemory.map(broker::withHostMemory).orElse(broker);
    }
}

package io.memogate.proxy.config;

import static io.memogate.broker.BrokerSettings.DEFAULT_COMPILE_SHARE;
import static io.memogate.broker.BrokerSettings.DEFAULT_GRACE_PERIOD;
import static io.memogate.broker.BrokerSettings.DEFAULT_INTERVAL;
import static io.memogate.broker.BrokerSettings.DEFAULT_MINIMUM_TARGET_BYTES;
import static io.memogate.broker.BrokerSettings.DEFAULT_STATIC_TARGET_BYTES;

import io.memogate.broker.BrokerSettings;
import io.memogate.broker.probe.mysql.MonitorUrl;
import io.memogate.broker.probe.postgres.ServerNameVerifier;
import io.memogate.broker.probe.sqlserver.SqlServerUrl;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The broker (DESIGN.md "Broker"): it polls the server's memory state and sets the compile-memory
 * target the gateways' thresholds are fractions of. The defaults are {@link BrokerSettings}'s, which
 * explains each.
 *
 * <p>Without a monitor the broker does not poll and the target stays {@code staticTargetBytes}. With
 * one, {@link MemogateConfig#brokerSettings()} turns this and the watched backend into the broker's
 * settings.
 *
 * @param monitor the monitoring connection; empty: no polling
 * @param interval time between polls, at least 10ms
 * @param gracePeriod how long the last good target is kept while polls fail, at least 0
 * @param compileShare the share of the host memory left after shared_buffers and running queries that
 *     compilations may use, in (0, 1]
 * @param hostMemoryBytes the database host's memory, positive; empty: read from /proc/meminfo when
 *     co-located, otherwise unknown, and the target stays static
 * @param coLocated the server runs on this machine: its processes' private memory is read from /proc
 * @param staticTargetBytes the target before the first good poll, once the grace period has run out,
 *     and always without a monitor; positive, at least {@code minimumTargetBytes}
 * @param minimumTargetBytes the target never falls below this, positive
 */
public record BrokerConfig(Optional<MonitorConfig> monitor, Duration interval, Duration gracePeriod,
                           double compileShare, OptionalLong hostMemoryBytes, boolean coLocated,
                           long staticTargetBytes, long minimumTargetBytes) {

    /** junixsocket's factory for pgjdbc's socketFactory setting: its argument is the socket's path. */
    static final String UNIX_SOCKET_FACTORY = "org.newsclub.net.unix.AFUNIXSocketFactory$FactoryArg";

    /** What a file without a {@code broker} section gets: no monitor, so a static target. */
    public static final BrokerConfig DEFAULTS = new BrokerConfig(Optional.empty(), DEFAULT_INTERVAL,
            DEFAULT_GRACE_PERIOD, DEFAULT_COMPILE_SHARE, OptionalLong.empty(), false, DEFAULT_STATIC_TARGET_BYTES,
            DEFAULT_MINIMUM_TARGET_BYTES);

    public BrokerConfig {
        Objects.requireNonNull(monitor, "monitor");
        Objects.requireNonNull(interval, "interval");
        Objects.requireNonNull(gracePeriod, "gracePeriod");
        Objects.requireNonNull(hostMemoryBytes, "hostMemoryBytes");
    }

    public BrokerConfig withMonitor(MonitorConfig monitor) {
        return new BrokerConfig(Optional.of(monitor), interval, gracePeriod, compileShare, hostMemoryBytes,
                coLocated, staticTargetBytes, minimumTargetBytes);
    }

    public BrokerConfig withHostMemory(long bytes) {
        return new BrokerConfig(monitor, interval, gracePeriod, compileShare, OptionalLong.of(bytes), coLocated,
                staticTargetBytes, minimumTargetBytes);
    }

    public BrokerConfig withCoLocated(boolean coLocated) {
        return new BrokerConfig(monitor, interval, gracePeriod, compileShare, hostMemoryBytes, coLocated,
                staticTargetBytes, minimumTargetBytes);
    }

    /**
     * The broker's settings for watching {@code backend}'s server, which speaks {@code protocol}, or empty
     * without a monitor. Only called on a validated configuration, so BrokerSettings' own checks pass.
     */
    Optional<BrokerSettings> settingsFor(BackendConfig backend, Protocol protocol) {
        return monitor.map(m -> BrokerSettings.builder(switch (protocol) {
                    case MYSQL -> mysqlUrl(backend);
                    case TDS -> sqlServerUrl(backend);
                    case POSTGRESQL -> jdbcUrl(backend, m.database());
                }, m.user(), m.password().orElse(null))
                .interval(interval)
                .gracePeriod(gracePeriod)
                .compileShare(compileShare)
                .hostMemoryBytes(hostMemoryBytes)
                .coLocated(coLocated)
                .staticTargetBytes(staticTargetBytes)
                .minimumTargetBytes(minimumTargetBytes)
                .build());
    }

    /**
     * {@code jdbc:postgresql://host:port/database?sslmode=...}: pgjdbc's URL for the backend's server (over
     * its Unix socket when the backend names one),
     * with TLS as the proxy itself connects to it. pgjdbc URL-decodes the database name and each parameter
     * value (Driver.parseURL), so those are encoded; an IPv6 address goes in brackets. Under verify-full
     * pgjdbc checks the certificate against the host in the URL; a backend's tls.serverName, which pgjdbc
     * has no setting for, is checked instead through {@link ServerNameVerifier}.
     */
    static String jdbcUrl(BackendConfig backend, String database) {
        Optional<Path> socket = backend.unixSocket();
        if (socket.isPresent()) {
            // pgjdbc speaks TCP only; junixsocket's factory hands it the Unix socket instead, and the host in
            // the URL is then only a name. No TLS: PostgreSQL does not offer it on Unix sockets.
            return "jdbc:postgresql://localhost:" + backend.port() + "/" + encode(database)
                    + "?sslmode=disable&socketFactory=" + encode(UNIX_SOCKET_FACTORY)
                    + "&socketFactoryArg=" + encode(socket.get().toString()) + "&ApplicationName=memogate-broker";
        }
        String host = backend.host().indexOf(':') >= 0 ? "[" + backend.host() + "]" : backend.host();
        StringBuilder url = new StringBuilder("jdbc:postgresql://").append(host).append(':').append(backend.port())
                .append('/').append(encode(database));
        BackendTlsConfig tls = backend.tls();
        url.append("?sslmode=").append(switch (tls.mode()) {
            case DISABLE -> "disable";
            case PREFER -> "prefer";
            case REQUIRE -> "require";
            case VERIFY_FULL -> "verify-full";
        });
        if (tls.mode() == TlsMode.VERIFY_FULL) {
            // Validation makes verify-full come with its bundle.
            url.append("&sslrootcert=").append(encode(tls.trustedCertificates().orElseThrow().toString()));
            tls.serverName().ifPresent(name -> url.append("&sslhostnameverifier=")
                    .append(ServerNameVerifier.class.getName())
                    .append('&').append(ServerNameVerifier.SERVER_NAME).append('=').append(encode(name)));
        }
        // Names the connection in pg_stat_activity, so the operator can tell it from the clients'.
        return url.append("&ApplicationName=memogate-broker").toString();
    }

    /**
     * mariadb-java-client's URL for a MySQL or MariaDB backend, TLS as the proxy connects to it. The driver has
     * no "TLS if offered": {@code prefer} is plain, as the monitoring connection must work on a server without TLS.
     */
    static String mysqlUrl(BackendConfig backend) {
        BackendTlsConfig tls = backend.tls();
        MonitorUrl.Tls mode = switch (tls.mode()) {
            case DISABLE, PREFER -> MonitorUrl.Tls.DISABLE;
            case REQUIRE -> MonitorUrl.Tls.ENCRYPT;
            case VERIFY_FULL -> MonitorUrl.Tls.VERIFY_FULL;
        };
        return MonitorUrl.of(backend.host(), backend.port(), mode, tls.trustedCertificates());
    }

    /**
     * mssql-jdbc's URL for a SQL Server backend, TLS as the proxy connects to it: prefer is the driver's
     * encrypt=false (the login encrypted when the server offers TLS); verify-full checks the certificate against
     * the backend's tls.serverName, the chain against the JVM's trust store (the driver reads no PEM bundle).
     */
    static String sqlServerUrl(BackendConfig backend) {
        BackendTlsConfig tls = backend.tls();
        SqlServerUrl.Tls mode = switch (tls.mode()) {
            case DISABLE, PREFER -> SqlServerUrl.Tls.OFF;
            case REQUIRE -> SqlServerUrl.Tls.ENCRYPT;
            case VERIFY_FULL -> SqlServerUrl.Tls.VERIFY_FULL;
        };
        return SqlServerUrl.of(backend.host(), backend.port(), mode, tls.serverName());
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }
}

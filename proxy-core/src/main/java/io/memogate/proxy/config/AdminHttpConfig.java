package io.memogate.proxy.config;

import java.util.Objects;

/**
 * The admin HTTP endpoint: Prometheus metrics on {@code /metrics}, liveness on {@code /health}.
 *
 * <p>Loopback by default: the endpoint has no authentication, and what it shows (connection counts,
 * statement sizes, the JVM) is for the operator, not for the network.
 *
 * @param host the address to bind, {@value #DEFAULT_HOST} unless configured
 * @param port the port to bind, {@value #DEFAULT_PORT} unless configured; 0 binds an ephemeral port (tests)
 * @param enabled false to run without the endpoint; metrics are still exported over JMX
 */
public record AdminHttpConfig(String host, int port, boolean enabled) {

    public static final String DEFAULT_HOST = "127.0.0.1";
    /** Next to Prometheus's own exporters (9100 node, 9187 postgres) without taking a registered one. */
    public static final int DEFAULT_PORT = 9930;

    public static final AdminHttpConfig DEFAULTS = new AdminHttpConfig(DEFAULT_HOST, DEFAULT_PORT, true);

    public AdminHttpConfig {
        Objects.requireNonNull(host, "host");
    }

    /** An enabled endpoint on {@code host:port}. */
    public static AdminHttpConfig of(String host, int port) {
        return new AdminHttpConfig(host, port, true);
    }

    public AdminHttpConfig withEnabled(boolean enabled) {
        return new AdminHttpConfig(host, port, enabled);
    }

    /** "host:port", with brackets around an IPv6 literal, for messages and logs. */
    public String address() {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }
}

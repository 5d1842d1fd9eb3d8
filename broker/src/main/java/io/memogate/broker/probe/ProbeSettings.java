package io.memogate.broker.probe;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;

/**
 * How a probe reaches its server: the dedicated monitoring connection, whether the server runs on this
 * host (so its processes can be read in /proc), and how long one network operation may block.
 *
 * @param jdbcUrl   the monitoring connection's JDBC URL
 * @param user      the monitoring login role
 * @param password  its password, or null when the server does not ask for one
 * @param coLocated true when the server's processes are visible in this host's /proc (same host and
 *                  pid namespace)
 * @param timeout   bound on connecting and on each read from the server, so that a hung server fails
 *                  the poll instead of hanging the poller
 */
public record ProbeSettings(String jdbcUrl, String user, String password, boolean coLocated, Duration timeout) {

    private static final String SOCKET_FACTORY_ARG = "socketFactoryArg=";

    public ProbeSettings {
        if (jdbcUrl == null || !jdbcUrl.startsWith("jdbc:")) {
            throw new IllegalArgumentException("jdbcUrl must be a JDBC URL (jdbc:...), was " + jdbcUrl);
        }
        if (user == null || user.isBlank()) {
            throw new IllegalArgumentException("user must name the monitoring login role");
        }
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive, was " + timeout);
        }
    }

    /** The URL without its parameters, which may carry a password: safe for messages and logs. */
    public String describeUrl() {
        return describeUrl(jdbcUrl);
    }

    /**
     * {@code jdbcUrl} without its parameters, which may carry a password; but with the socket a socket
     * factory is given ({@code socketFactoryArg}, a Unix socket's path), since the URL's host and port are
     * then only names: "jdbc:postgresql://localhost:5432/postgres" alone would send whoever reads a failure
     * to a TCP port, maybe another server's.
     */
    public static String describeUrl(String jdbcUrl) {
        int parameters = jdbcUrl.indexOf('?');
        if (parameters < 0) {
            return jdbcUrl;
        }
        String described = jdbcUrl.substring(0, parameters);
        for (String parameter : jdbcUrl.substring(parameters + 1).split("&")) {
            if (parameter.startsWith(SOCKET_FACTORY_ARG)) {
                return described + " over the socket "
                        + URLDecoder.decode(parameter.substring(SOCKET_FACTORY_ARG.length()), StandardCharsets.UTF_8);
            }
        }
        return described;
    }

    /** Never prints the password. */
    @Override
    public String toString() {
        return "ProbeSettings[jdbcUrl=" + describeUrl() + ", user=" + user + ", password="
                + (password == null ? "none" : "***") + ", coLocated=" + coLocated + ", timeout=" + timeout + "]";
    }
}

package io.memogate.proxy.config;

import java.time.Duration;
import java.util.Objects;

/**
 * Limits that protect the proxy itself.
 *
 * @param maxMessageBytes the largest frontend message the proxy holds whole (a Query, a Parse, any
 *     message while logging in), length word included; a client that announces a longer one gets an
 *     error and is disconnected instead of making the proxy buffer it. A Bind, CopyData or FunctionCall
 *     over 64 KiB is relayed as it arrives and not limited here. Between 1KiB and 1GiB (PostgreSQL's own
 *     PQ_LARGE_MESSAGE_LIMIT is just under 1GiB).
 * @param connectTimeout how long a backend TCP connect may take, and again how long the server may then take
 *     to send its first answer (to the SSLRequest or the StartupMessage); at least 1ms, at most 1h
 * @param shutdownTimeout on graceful shutdown, how long sessions may go on before they are closed; 0 closes
 *     them at once
 * @param maxClientConnections client connections accepted at once; further ones are refused, at least 1
 * @param loginTimeout how long a client may take to send its startup packet (TLS handshake included)
 *     before its connection is closed, at least 1ms, at most 1h; after that the server's own
 *     authentication_timeout bounds the login, which the proxy relays
 */
public record LimitsConfig(int maxMessageBytes, Duration connectTimeout, Duration shutdownTimeout,
                           int maxClientConnections, Duration loginTimeout) {

    public static final int DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);
    public static final Duration DEFAULT_SHUTDOWN_TIMEOUT = Duration.ofSeconds(30);
    public static final int DEFAULT_MAX_CLIENT_CONNECTIONS = 1000;
    /** PostgreSQL's authentication_timeout and PgBouncer's client_login_timeout default alike. */
    public static final Duration DEFAULT_LOGIN_TIMEOUT = Duration.ofSeconds(60);

    public static final LimitsConfig DEFAULTS = new LimitsConfig(DEFAULT_MAX_MESSAGE_BYTES,
            DEFAULT_CONNECT_TIMEOUT, DEFAULT_SHUTDOWN_TIMEOUT, DEFAULT_MAX_CLIENT_CONNECTIONS, DEFAULT_LOGIN_TIMEOUT);

    public LimitsConfig {
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        Objects.requireNonNull(shutdownTimeout, "shutdownTimeout");
        Objects.requireNonNull(loginTimeout, "loginTimeout");
    }

    public LimitsConfig withMaxMessageBytes(int maxMessageBytes) {
        return new LimitsConfig(maxMessageBytes, connectTimeout, shutdownTimeout, maxClientConnections, loginTimeout);
    }

    public LimitsConfig withConnectTimeout(Duration connectTimeout) {
        return new LimitsConfig(maxMessageBytes, connectTimeout, shutdownTimeout, maxClientConnections, loginTimeout);
    }

    public LimitsConfig withShutdownTimeout(Duration shutdownTimeout) {
        return new LimitsConfig(maxMessageBytes, connectTimeout, shutdownTimeout, maxClientConnections, loginTimeout);
    }

    public LimitsConfig withMaxClientConnections(int maxClientConnections) {
        return new LimitsConfig(maxMessageBytes, connectTimeout, shutdownTimeout, maxClientConnections, loginTimeout);
    }

    public LimitsConfig withLoginTimeout(Duration loginTimeout) {
        return new LimitsConfig(maxMessageBytes, connectTimeout, shutdownTimeout, maxClientConnections, loginTimeout);
    }
}

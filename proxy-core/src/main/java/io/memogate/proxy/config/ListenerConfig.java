package io.memogate.proxy.config;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * One address the proxy accepts client connections on.
 *
 * @param host the address to bind, {@value #DEFAULT_HOST} unless configured; starting with {@code /}, a
 *     directory to make a Unix socket in, {@code host/.s.PGSQL.port}, where libpq clients find it with the
 *     same host and port (as PostgreSQL's unix_socket_directories and PgBouncer's unix_socket_dir)
 * @param port the port to bind, {@value #DEFAULT_PORT} unless configured; 0 binds an ephemeral port (tests)
 * @param tls present when the listener terminates TLS for clients that send SSLRequest; empty when it
 *     answers SSLRequest with 'N' and talks plain TCP. Optional rather than nullable, as every record here:
 *     after loading nothing is null.
 * @param protocol the wire protocol its clients speak, {@link Protocol#POSTGRESQL} unless configured
 */
public record ListenerConfig(String host, int port, Optional<ServerTlsConfig> tls, Protocol protocol) {

    public static final String DEFAULT_HOST = "127.0.0.1";
    /** PgBouncer's port, so that a client already pointed at a pooler needs no change. */
    public static final int DEFAULT_PORT = 6432;

    public ListenerConfig {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(tls, "tls");
        Objects.requireNonNull(protocol, "protocol");
    }

    /** A PostgreSQL listener. */
    public ListenerConfig(String host, int port, Optional<ServerTlsConfig> tls) {
        this(host, port, tls, Protocol.POSTGRESQL);
    }

    /** A plain-TCP listener. */
    public static ListenerConfig of(String host, int port) {
        return new ListenerConfig(host, port, Optional.empty());
    }

    /** The listener used when the file has no {@code listeners} section: 127.0.0.1:6432, no TLS. */
    public static ListenerConfig defaults() {
        return of(DEFAULT_HOST, DEFAULT_PORT);
    }

    public ListenerConfig withTls(ServerTlsConfig tls) {
        return new ListenerConfig(host, port, Optional.of(tls), protocol);
    }

    public ListenerConfig withProtocol(Protocol protocol) {
        return new ListenerConfig(host, port, tls, protocol);
    }

    /**
     * What a reload cannot change on a bound socket: its address and the protocol its sessions speak,
     * {@code postgresql://127.0.0.1:6432}.
     */
    public String socket() {
        return protocol.configName() + "://" + address();
    }

    /** "host:port", with brackets around an IPv6 literal, or the Unix socket's path, for messages and logs. */
    public String address() {
        return unixSocket().map(Path::toString).orElseGet(() -> (host.indexOf(':') >= 0 ? "[" + host + "]" : host)
                + ":" + port);
    }

    /** The Unix socket, {@code host/.s.PGSQL.port}, when {@link #host()} names a directory; empty for TCP. */
    public Optional<Path> unixSocket() {
        return UnixSockets.in(host, port);
    }
}

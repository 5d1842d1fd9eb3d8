package io.memogate.proxy.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One PostgreSQL server the proxy forwards to, and which databases it serves.
 *
 * @param name unique among backends, {@code [A-Za-z0-9_.-]+}; names it in logs, metrics and the admin console
 * @param host the server's host name or address, or, starting with {@code /}, the directory of its Unix
 *     socket (libpq's convention, which PgBouncer follows too): the socket is {@code host/.s.PGSQL.port}
 * @param port the server's port, {@value #DEFAULT_PORT} unless configured
 * @param databases database names (as the client sends them in its startup message) routed here
 * @param isDefault this backend also takes every database that no backend lists; at most one is. In the
 *     file it defaults to true for a backend that lists no databases (such a backend has no other use)
 *     and to false for one that does.
 * @param tls how the proxy connects to it; {@link BackendTlsConfig#DEFAULT} unless configured
 * @param tds SQL Server only: what the TDS wing does beyond TLS; {@link BackendTdsConfig#DEFAULT} unless configured
 */
public record BackendConfig(String name, String host, int port, List<String> databases, boolean isDefault,
                            BackendTlsConfig tls, BackendTdsConfig tds) {

    public static final int DEFAULT_PORT = 5432;

    public BackendConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(host, "host");
        databases = List.copyOf(databases);
        Objects.requireNonNull(tls, "tls");
        Objects.requireNonNull(tds, "tds");
    }

    /** A backend with {@link BackendTdsConfig#DEFAULT}. */
    public BackendConfig(String name, String host, int port, List<String> databases, boolean isDefault,
                         BackendTlsConfig tls) {
        this(name, host, port, databases, isDefault, tls, BackendTdsConfig.DEFAULT);
    }

    /**
     * A backend that lists no databases and is therefore, as in the file, the default; TLS as
     * {@link BackendTlsConfig#DEFAULT}. Use the withers for the rest.
     */
    public static BackendConfig of(String name, String host, int port) {
        return new BackendConfig(name, host, port, List.of(), true, BackendTlsConfig.DEFAULT);
    }

    /** The same backend serving exactly {@code databases}; leaves {@link #isDefault()} as it was. */
    public BackendConfig withDatabases(String... databases) {
        return new BackendConfig(name, host, port, List.of(databases), isDefault, tls, tds);
    }

    public BackendConfig withDefault(boolean isDefault) {
        return new BackendConfig(name, host, port, databases, isDefault, tls, tds);
    }

    public BackendConfig withTls(BackendTlsConfig tls) {
        return new BackendConfig(name, host, port, databases, isDefault, tls, tds);
    }

    public BackendConfig withTds(BackendTdsConfig tds) {
        return new BackendConfig(name, host, port, databases, isDefault, tls, tds);
    }

    /** Whether this backend lists {@code database} explicitly (the default backend takes others too). */
    public boolean lists(String database) {
        return databases.contains(database);
    }

    /**
     * The server's Unix socket, {@code host/.s.PGSQL.port}, when {@link #host()} names its directory;
     * empty for a TCP backend.
     */
    public Optional<Path> unixSocket() {
        return UnixSockets.in(host, port);
    }

    /** The name the server's certificate must carry under verify-full: the configured serverName, else host. */
    public String tlsServerName() {
        return tls.serverName().orElse(host);
    }
}

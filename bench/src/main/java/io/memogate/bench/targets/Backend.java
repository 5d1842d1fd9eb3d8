package io.memogate.bench.targets;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * The PostgreSQL server every target leads to, and the login the benchmark uses on it.
 *
 * @param host its TCP address, or, in a backend from {@link #overUnixSocket()}, its socket directory
 *     (libpq's convention, which Memogate and PgBouncer follow)
 * @param socketDirectory the directory of the server's Unix socket, where relays on this machine may
 *     reach it without TCP; empty where it has none the benchmark can use
 */
public record Backend(String host, int port, String database, String user, String password,
                      Optional<Path> socketDirectory) {

    public Backend {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
        Objects.requireNonNull(socketDirectory, "socketDirectory");
    }

    /** A server reached over TCP only. */
    public Backend(String host, int port, String database, String user, String password) {
        this(host, port, database, user, password, Optional.empty());
    }

    /** The same server, its host the socket directory; empty when it has no socket the benchmark can use. */
    public Optional<Backend> overUnixSocket() {
        return socketDirectory.map(directory -> new Backend(directory.toString(), port, database, user, password,
                socketDirectory));
    }

    /** Whether {@link #host()} is a socket directory. */
    public boolean isUnixSocket() {
        return host.startsWith("/");
    }

    /** The socket itself, {@code host/.s.PGSQL.port}, for relays that take its path (HAProxy). */
    Path unixSocket() {
        return Path.of(host, ".s.PGSQL." + port);
    }
}

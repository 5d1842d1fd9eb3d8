package io.memogate.proxy.config;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;

/**
 * PostgreSQL's naming of Unix sockets, which libpq, PgBouncer and Memogate's listeners and backends share:
 * a host that starts with {@code /} is a directory, and the socket in it is named after the port.
 */
public final class UnixSockets {

    /** Linux's sun_path is 108 bytes, one of them the terminating NUL. */
    static final int MAX_PATH_BYTES = 107;

    private UnixSockets() {
    }

    /** {@code host/.s.PGSQL.port} when {@code host} names a directory; empty for a TCP host. */
    public static Optional<Path> in(String host, int port) {
        return host.startsWith("/") ? Optional.of(Path.of(host, ".s.PGSQL." + port)) : Optional.empty();
    }

    /** Whether {@code socket}'s path fits the address a bind or connect takes. */
    static boolean fits(Path socket) {
        return bytes(socket) <= MAX_PATH_BYTES;
    }

    static int bytes(Path socket) {
        return socket.toString().getBytes(StandardCharsets.UTF_8).length;
    }
}

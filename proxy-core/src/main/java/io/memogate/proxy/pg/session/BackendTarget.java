package io.memogate.proxy.pg.session;

import io.memogate.proxy.config.TlsMode;
import io.netty.handler.ssl.SslContext;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A backend as a session connects to it: address, TLS mode and the TLS context built for it once at
 * start-up, and the host name to verify (verify-full) and send as SNI.
 *
 * @param configPath where the configuration file sets it, {@code backends[2]}: messages name its fields so
 * @param unixSocket the server's Unix socket when the backend's host names its directory; then host and
 *     port only name it, and TLS is never negotiated (PostgreSQL does not offer it on Unix sockets)
 */
public record BackendTarget(String name, String configPath, String host, int port, Optional<Path> unixSocket,
                            TlsMode tlsMode, Optional<SslContext> sslContext, String serverName) {

    /** {@code host:port}, or the socket's path, as messages and logs name the server. */
    public String address() {
        return unixSocket.map(Path::toString).orElseGet(() -> host + ":" + port);
    }

    /** Whether to send SSLRequest first: as libpq, never over a Unix socket. */
    boolean negotiatesTls() {
        return tlsMode != TlsMode.DISABLE && unixSocket.isEmpty();
    }
}

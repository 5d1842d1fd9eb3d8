package io.memogate.proxy.pg.session;

import io.memogate.proxy.config.TlsMode;
import io.netty.handler.ssl.SslContext;
import java.util.Optional;

/**
 * A backend as a session connects to it: address, TLS mode and the TLS context built for it once at
 * start-up, and the host name to verify (verify-full) and send as SNI.
 *
 * @param configPath where the configuration file sets it, {@code backends[2]}: messages name its fields so
 */
public record BackendTarget(String name, String configPath, String host, int port, TlsMode tlsMode,
                            Optional<SslContext> sslContext, String serverName) {

    public String address() {
        return host + ":" + port;
    }
}

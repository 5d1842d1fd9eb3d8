package io.memogate.proxy.config;

import java.util.Objects;

/**
 * How the proxy's sockets are driven.
 *
 * @param transport the socket implementation asked for; fixed at start, a reload that changes it is
 *     logged as needing a restart
 */
public record NetworkConfig(NetworkTransport transport) {

    public static final NetworkConfig DEFAULTS = new NetworkConfig(NetworkTransport.AUTO);

    public NetworkConfig {
        Objects.requireNonNull(transport, "transport");
    }
}

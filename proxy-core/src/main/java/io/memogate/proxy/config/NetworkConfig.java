package io.memogate.proxy.config;

import java.util.Objects;

/**
 * How the proxy's sockets are driven. These settings are fixed at start; a reload that changes them is
 * logged as needing a restart.
 *
 * @param transport the socket implementation asked for
 * @param eventLoops the threads that run every session's I/O, 1..{@value #MAX_EVENT_LOOPS}; by default one
 *     per processor. Fewer threads each find more ready sockets per wake-up: where the proxy shares a few
 *     cores with its server, one loop spends less CPU per transaction than two, but relays fewer
 *     transactions per second, all sessions' I/O being on one core (bench/log/passthrough.md)
 * @param keepalive when a vanished peer of either leg is noticed
 */
public record NetworkConfig(NetworkTransport transport, int eventLoops, TcpKeepalive keepalive) {

    public static final int MAX_EVENT_LOOPS = 1024;

    public static final NetworkConfig DEFAULTS =
            new NetworkConfig(NetworkTransport.AUTO, Runtime.getRuntime().availableProcessors(),
                    TcpKeepalive.SYSTEM_DEFAULTS);

    public NetworkConfig {
        Objects.requireNonNull(transport, "transport");
        Objects.requireNonNull(keepalive, "keepalive");
    }

    public NetworkConfig withTransport(NetworkTransport transport) {
        return new NetworkConfig(transport, eventLoops, keepalive);
    }

    public NetworkConfig withEventLoops(int eventLoops) {
        return new NetworkConfig(transport, eventLoops, keepalive);
    }

    public NetworkConfig withKeepalive(TcpKeepalive keepalive) {
        return new NetworkConfig(transport, eventLoops, keepalive);
    }
}

package io.memogate.proxy.config;

/**
 * What the TDS wing does with one backend's SQL Server beyond TLS; the other wings do not read it.
 *
 * @param followRouting a login answered with a Routing ENVCHANGE (an Azure SQL gateway, an availability group
 *     listener with read-only routing) is followed by the proxy, which logs in to the routed server for the client;
 *     false: the client's login is refused with an error naming the routed server, to point the backend at it
 */
public record BackendTdsConfig(boolean followRouting) {

    /** What a backend without a {@code tds} section gets: routing followed. */
    public static final BackendTdsConfig DEFAULT = new BackendTdsConfig(true);
}

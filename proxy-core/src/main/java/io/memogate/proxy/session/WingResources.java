package io.memogate.proxy.session;

import io.memogate.proxy.config.TcpKeepalive;
import io.memogate.proxy.server.Transport;

/**
 * What the server gives every wing it makes: the socket implementation its event loops run (server legs
 * must use the same), the TCP keepalive for those legs, and the count of replaced server connections the
 * metrics read.
 */
public record WingResources(Transport transport, TcpKeepalive keepalive, RecycleCounts recycles) {
}

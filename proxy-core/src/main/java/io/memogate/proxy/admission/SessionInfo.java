package io.memogate.proxy.admission;

import java.net.SocketAddress;

/** Who a session belongs to, for admission decisions and for the messages and logs that name it. */
public record SessionInfo(String user, String database, String applicationName, SocketAddress clientAddress) {}

package io.memogate.proxy.admission;

import io.netty.channel.unix.DomainSocketAddress;
import java.net.InetSocketAddress;
import java.net.UnixDomainSocketAddress;
import java.net.SocketAddress;

/** Who a session belongs to, for admission decisions and for the messages and logs that name it. */
public record SessionInfo(String user, String database, String applicationName, SocketAddress clientAddress) {

    /**
     * As the logs name a session, {@code dba@memogate from 10.0.0.9:40112 (psql)}: the way PostgreSQL's
     * log_line_prefix writes user@database, then the client's address and program. Every log line that names
     * a session goes through here, rather than the record's own {@code SessionInfo[user=..., ...]}.
     */
    @Override
    public String toString() {
        String who = user + "@" + database + " from " + describe(clientAddress);
        return applicationName == null || applicationName.isEmpty() ? who : who + " (" + applicationName + ")";
    }

    /**
     * {@code 10.0.0.9:40112} or {@code [::1]:40112}, not InetSocketAddress's {@code /10.0.0.9:40112}; a client
     * on a Unix socket, whose address has no name, {@code [local]} as PostgreSQL's logs write it.
     */
    public static String describe(SocketAddress address) {
        if (address instanceof InetSocketAddress inet && inet.getAddress() != null) {
            String host = inet.getAddress().getHostAddress();
            return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + inet.getPort();
        }
        if (address instanceof DomainSocketAddress || address instanceof UnixDomainSocketAddress) {
            return "[local]";
        }
        return String.valueOf(address);
    }
}

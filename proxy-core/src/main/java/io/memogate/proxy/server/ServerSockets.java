package io.memogate.proxy.server;

import io.memogate.proxy.server.ListenException.Endpoint;
import io.memogate.proxy.server.ListenException.Reason;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/** Binds a server socket and reports a failure as a {@link ListenException} that names the setting. */
public final class ServerSockets {

    private ServerSockets() {
    }

    /** "host:port", with brackets around an IPv6 literal. */
    public static String address(String host, int port) {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }

    /**
     * Binds {@code bootstrap} to {@code host:port} and waits for it.
     *
     * @param setting the configuration path of the address, for the message: {@code listeners[0]}
     * @throws ListenException when the address cannot be bound, classified by {@link Reason}
     */
    public static Channel bind(ServerBootstrap bootstrap, Endpoint endpoint, String setting, String host, int port)
            throws InterruptedException {
        // Resolved here rather than by Netty so that a name that does not resolve is told apart.
        InetSocketAddress address = new InetSocketAddress(host, port);
        if (address.isUnresolved()) {
            throw new ListenException(endpoint, setting, address(host, port), Reason.UNKNOWN_HOST, null);
        }
        ChannelFuture bound = bootstrap.bind(address).await();
        if (!bound.isSuccess()) {
            Throwable cause = bound.cause();
            throw new ListenException(endpoint, setting, address(host, port), Reason.of(cause), cause);
        }
        return bound.channel();
    }

    /**
     * Fails now, as {@link #bind} would later, when {@code host:port} cannot be bound: for a command that
     * has slow work to do first (the demo starts PostgreSQL and loads a schema before its proxy binds).
     * The socket is closed again at once; port 0 (any free port) is not checked.
     *
     * @throws ListenException when the address cannot be bound now
     */
    public static void checkFree(Endpoint endpoint, String setting, String host, int port) {
        if (port == 0) {
            return;
        }
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true); // as Netty binds: a port left in TIME_WAIT is free
            socket.bind(new InetSocketAddress(host, port));
        } catch (IOException e) {
            throw new ListenException(endpoint, setting, address(host, port), Reason.of(e), e);
        }
    }
}

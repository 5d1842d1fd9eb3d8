package io.memogate.proxy.server;

import io.memogate.proxy.server.ListenException.Endpoint;
import io.memogate.proxy.server.ListenException.Reason;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;

/** Binds a server socket and reports a failure as a {@link ListenException} that names the setting. */
public final class ServerSockets {

    /** stat(2)'s file type bits, and the type of a socket. */
    private static final int S_IFMT = 0170000;
    private static final int S_IFSOCK = 0140000;

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
     * Binds {@code bootstrap}, whose channel class is {@code transport}'s for Unix sockets, to {@code socket}
     * and waits for it. As PostgreSQL does: a socket file left by a process that ended without removing it
     * is replaced, a socket someone still answers on (or may: see {@link #inUse}), or any other file at
     * that path, is an address in use, and the new socket is open to
     * every local user (mode 0777, PostgreSQL's default unix_socket_permissions), the directory and the
     * server's pg_hba rules deciding who gets in. The socket's lock file ({@link SocketLock}) is taken
     * first, so that only its holder replaces or removes the socket; both are removed when the channel closes.
     *
     * @throws ListenException when the socket cannot be made, classified by {@link Reason}
     */
    public static Channel bindUnix(ServerBootstrap bootstrap, Transport transport, String setting, Path socket)
            throws InterruptedException {
        SocketLock lock;
        try {
            lock = SocketLock.take(socket).orElseThrow(() -> new ListenException(Endpoint.CLIENTS, setting,
                    socket.toString(), Reason.ADDRESS_IN_USE, null));
        } catch (IOException e) {
            throw unixBindFailure(setting, socket, e);
        }
        if (inUse(socket)) {
            lock.release(Optional.empty());
            throw new ListenException(Endpoint.CLIENTS, setting, socket.toString(), Reason.ADDRESS_IN_USE, null);
        }
        ChannelFuture bound = bootstrap.bind(transport.unixSocketAddress(socket)).await();
        if (!bound.isSuccess()) {
            lock.release(Optional.empty());
            throw unixBindFailure(setting, socket, bound.cause());
        }
        Channel channel = bound.channel();
        channel.closeFuture().addListener(closed -> lock.release(Optional.of(socket)));
        try {
            Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rwxrwxrwx"));
        } catch (IOException e) {
            channel.close();
            throw new ListenException(Endpoint.CLIENTS, setting, socket.toString(), Reason.OTHER, e);
        }
        return channel;
    }

    private static ListenException unixBindFailure(String setting, Path socket, Throwable cause) {
        Reason reason = Reason.of(cause) == Reason.PERMISSION_DENIED ? Reason.DIRECTORY_NOT_WRITABLE : Reason.of(cause);
        return new ListenException(Endpoint.CLIENTS, setting, socket.toString(), reason, cause);
    }

    /**
     * Whether {@code socket}'s path is taken. Netty's native transports unlink the path before they bind
     * (NIO's bind would refuse it), so this is the only check there is: anything but a socket (a regular
     * file, a FIFO, a directory, a symbolic link) is someone else's and taken. A socket is taken unless a
     * connect is refused (ECONNREFUSED: no process holds it), and then it is stale and removed here. Any
     * other failure, EACCES on another user's socket with a stricter mode, EPROTOTYPE on a datagram
     * socket, says nothing of whether its owner still runs: removing it would take a live server's address.
     */
    private static boolean inUse(Path socket) {
        int mode;
        try {
            mode = (Integer) Files.getAttribute(socket, "unix:mode", LinkOption.NOFOLLOW_LINKS);
        } catch (IOException | UnsupportedOperationException e) {
            return false; // nothing there (or nothing we can see): the bind tells
        }
        if ((mode & S_IFMT) != S_IFSOCK) {
            return true;
        }
        try (SocketChannel probe = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
            return true;
        } catch (ConnectException refused) {
            try {
                Files.deleteIfExists(socket);
            } catch (IOException notRemoved) {
                // The bind reports it.
            }
            return false;
        } catch (IOException e) {
            return Files.exists(socket, LinkOption.NOFOLLOW_LINKS); // unless it went away meanwhile
        }
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

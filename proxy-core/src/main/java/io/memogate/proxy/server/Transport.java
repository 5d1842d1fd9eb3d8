package io.memogate.proxy.server;

import io.memogate.proxy.config.NetworkTransport;
import io.memogate.proxy.config.TcpKeepalive;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollDomainSocketChannel;
import io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioChannelOption;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioDomainSocketChannel;
import io.netty.channel.socket.nio.NioServerDomainSocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.channel.uring.IoUringChannelOption;
import io.netty.channel.uring.IoUringDomainSocketChannel;
import io.netty.channel.uring.IoUringServerDomainSocketChannel;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.netty.channel.uring.IoUringSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import jdk.net.ExtendedSocketOptions;

/**
 * A socket implementation: the event loops' I/O handler and the channel classes that go with it, for
 * TCP and for Unix sockets. Every
 * channel of a session (client leg, server leg, cancel request, recycled login) must be of the classes
 * of the loop it is registered on, so one Transport is chosen at start ({@link TransportSelector}) and
 * handed to everything that opens a socket.
 *
 * <p>The native transports make fewer copies and system calls than NIO, which on a machine where the
 * proxy shares its cores with the server is time taken back from the server. Their factories here do
 * not check availability; {@link TransportSelector} does.
 */
public record Transport(
        String name,
        IoHandlerFactory ioHandlerFactory,
        Class<? extends ServerChannel> serverChannelClass,
        Class<? extends SocketChannel> socketChannelClass,
        Class<? extends ServerChannel> serverDomainSocketChannelClass,
        Class<? extends Channel> domainSocketChannelClass,
        Function<Path, SocketAddress> domainSocketAddress,
        KeepaliveOptions keepaliveOptions) {

    /** This transport's spelling of the TCP_KEEPIDLE, TCP_KEEPINTVL and TCP_KEEPCNT socket options. */
    public record KeepaliveOptions(ChannelOption<Integer> idle, ChannelOption<Integer> interval,
                                   ChannelOption<Integer> count) {
    }

    /**
     * The socket options that set {@code keepalive} on a channel of this transport (SO_KEEPALIVE is set
     * by the callers, always); the system's values are left alone, so none for {@link TcpKeepalive#SYSTEM_DEFAULTS}.
     */
    public Map<ChannelOption<Integer>, Integer> keepalive(TcpKeepalive keepalive) {
        Map<ChannelOption<Integer>, Integer> options = new LinkedHashMap<>();
        if (!keepalive.idle().isZero()) {
            options.put(keepaliveOptions.idle(), (int) keepalive.idle().toSeconds());
        }
        if (!keepalive.interval().isZero()) {
            options.put(keepaliveOptions.interval(), (int) keepalive.interval().toSeconds());
        }
        if (keepalive.count() != 0) {
            options.put(keepaliveOptions.count(), keepalive.count());
        }
        return options;
    }

    /** The channel class that connects to {@code unixSocket} when it is present, else the TCP one. */
    public Class<? extends Channel> channelClassFor(Optional<Path> unixSocket) {
        return unixSocket.isPresent() ? domainSocketChannelClass : socketChannelClass;
    }

    /** The server channel class that listens on {@code unixSocket} when it is present, else the TCP one. */
    public Class<? extends ServerChannel> serverChannelClassFor(Optional<Path> unixSocket) {
        return unixSocket.isPresent() ? serverDomainSocketChannelClass : serverChannelClass;
    }

    /** {@code socket} in this transport's address type: the native transports have their own, NIO the JDK's. */
    public SocketAddress unixSocketAddress(Path socket) {
        return domainSocketAddress.apply(socket);
    }

    /**
     * Where to connect: the Unix socket in this transport's address type (the native transports have
     * their own, NIO takes the JDK's), else {@code host:port}, resolved when connecting.
     */
    public SocketAddress remoteAddress(Optional<Path> unixSocket, String host, int port) {
        return unixSocket.map(domainSocketAddress).orElseGet(() -> InetSocketAddress.createUnresolved(host, port));
    }

    /** Epoll when Netty's native library loads, else NIO: for endpoints that need no choice (admin HTTP). */
    public static Transport best() {
        return Epoll.isAvailable() ? epoll() : nio();
    }

    /**
     * The transport {@code kind} names, which must be available (see {@link TransportSelector}): Netty's
     * factories throw otherwise.
     */
    public static Transport of(NetworkTransport kind) {
        return switch (kind) {
            case IO_URING -> ioUring();
            case EPOLL -> epoll();
            case NIO -> nio();
            case AUTO -> throw new IllegalArgumentException("AUTO is resolved by TransportSelector first");
        };
    }

    static Transport ioUring() {
        return new Transport("io_uring", IoUringIoHandler.newFactory(), IoUringServerSocketChannel.class,
                IoUringSocketChannel.class, IoUringServerDomainSocketChannel.class, IoUringDomainSocketChannel.class,
                Transport::nativeDomainAddress,
                new KeepaliveOptions(IoUringChannelOption.TCP_KEEPIDLE,
                        IoUringChannelOption.TCP_KEEPINTVL, IoUringChannelOption.TCP_KEEPCNT));
    }

    static Transport epoll() {
        return new Transport("epoll", EpollIoHandler.newFactory(), EpollServerSocketChannel.class,
                EpollSocketChannel.class, EpollServerDomainSocketChannel.class, EpollDomainSocketChannel.class,
                Transport::nativeDomainAddress,
                new KeepaliveOptions(EpollChannelOption.TCP_KEEPIDLE,
                        EpollChannelOption.TCP_KEEPINTVL, EpollChannelOption.TCP_KEEPCNT));
    }

    public static Transport nio() {
        return new Transport("nio", NioIoHandler.newFactory(), NioServerSocketChannel.class, NioSocketChannel.class,
                NioServerDomainSocketChannel.class, NioDomainSocketChannel.class, UnixDomainSocketAddress::of,
                new KeepaliveOptions(NioChannelOption.of(ExtendedSocketOptions.TCP_KEEPIDLE),
                        NioChannelOption.of(ExtendedSocketOptions.TCP_KEEPINTERVAL),
                        NioChannelOption.of(ExtendedSocketOptions.TCP_KEEPCOUNT)));
    }

    private static SocketAddress nativeDomainAddress(Path socket) {
        return new DomainSocketAddress(socket.toString());
    }

    public EventLoopGroup newEventLoopGroup(int threads) {
        return new MultiThreadIoEventLoopGroup(threads, ioHandlerFactory);
    }

    /**
     * A group whose threads are named {@code <name>-<group>-<thread>}, as thread dumps, logs and the per-loop
     * meters' {@code name} tag show them.
     */
    public EventLoopGroup newEventLoopGroup(int threads, String name) {
        return new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory(name), ioHandlerFactory);
    }
}

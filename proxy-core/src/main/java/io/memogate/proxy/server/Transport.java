package io.memogate.proxy.server;

import io.memogate.proxy.config.NetworkTransport;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.netty.channel.uring.IoUringSocketChannel;

/**
 * A socket implementation: the event loops' I/O handler and the channel classes that go with it. Every
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
        Class<? extends SocketChannel> socketChannelClass) {

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
                IoUringSocketChannel.class);
    }

    static Transport epoll() {
        return new Transport("epoll", EpollIoHandler.newFactory(), EpollServerSocketChannel.class,
                EpollSocketChannel.class);
    }

    public static Transport nio() {
        return new Transport("nio", NioIoHandler.newFactory(), NioServerSocketChannel.class, NioSocketChannel.class);
    }

    public EventLoopGroup newEventLoopGroup(int threads) {
        return new MultiThreadIoEventLoopGroup(threads, ioHandlerFactory);
    }
}

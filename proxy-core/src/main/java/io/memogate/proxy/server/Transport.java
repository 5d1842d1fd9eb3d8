package io.memogate.proxy.server;

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

/**
 * The socket implementation: Linux epoll when Netty's native library loads (fewer copies and syscalls,
 * which on two cores is time taken back from the server), else the JDK's NIO.
 */
public record Transport(
        String name,
        IoHandlerFactory ioHandlerFactory,
        Class<? extends ServerChannel> serverChannelClass,
        Class<? extends SocketChannel> socketChannelClass) {

    public static Transport best() {
        if (Epoll.isAvailable()) {
            return new Transport("epoll", EpollIoHandler.newFactory(), EpollServerSocketChannel.class,
                    EpollSocketChannel.class);
        }
        return nio();
    }

    public static Transport nio() {
        return new Transport("nio", NioIoHandler.newFactory(), NioServerSocketChannel.class, NioSocketChannel.class);
    }

    public EventLoopGroup newEventLoopGroup(int threads) {
        return new MultiThreadIoEventLoopGroup(threads, ioHandlerFactory);
    }
}

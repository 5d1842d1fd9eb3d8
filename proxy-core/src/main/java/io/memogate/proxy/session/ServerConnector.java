package io.memogate.proxy.session;

import io.memogate.proxy.config.TcpKeepalive;
import io.memogate.proxy.server.Transport;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Opens a session's server connection on the client's event loop (both legs on one thread), framed by the
 * wing's framer and handed to the session's handler, reads paused; counts the connections open. One per wing.
 */
public final class ServerConnector {

    private final Transport transport;
    private final Map<ChannelOption<Integer>, Integer> keepaliveOptions;
    private final AtomicInteger open = new AtomicInteger();

    private final Supplier<ChannelHandler> framer;

    /** @param framer a new framer of the wing's protocol for each server connection */
    public ServerConnector(Transport transport, TcpKeepalive keepalive, Supplier<ChannelHandler> framer) {
        this.transport = transport;
        this.framer = framer;
        this.keepaliveOptions = transport.keepalive(keepalive);
    }

    public ChannelFuture connect(EventLoop loop, String host, int port, ChannelHandler handler, Duration timeout) {
        Bootstrap bootstrap = new Bootstrap()
                .group(loop)
                .channel(transport.channelClassFor(Optional.empty()))
                .option(ChannelOption.AUTO_READ, false)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.SO_KEEPALIVE, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, timeout.toMillis()))
                .handler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel channel) {
                        channel.pipeline().addLast("framer", framer.get());
                        channel.pipeline().addLast("server", handler);
                    }
                });
        keepaliveOptions.forEach(bootstrap::option);
        ChannelFuture connected = bootstrap.connect(transport.remoteAddress(Optional.empty(), host, port));
        connected.addListener(done -> {
            if (done.isSuccess()) {
                open.incrementAndGet();
                connected.channel().closeFuture().addListener(closed -> open.decrementAndGet());
            }
        });
        return connected;
    }

    public int openConnections() {
        return open.get();
    }
}

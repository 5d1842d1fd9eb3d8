package io.memogate.proxy.pg.session;

import io.memogate.proxy.pg.message.backend.BackendKeyData;
import io.memogate.proxy.pg.message.frontend.CancelRequest;
import io.memogate.proxy.server.Transport;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoop;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends a CancelRequest with the server's real key to the backend, on a new connection as the
 * protocol requires. The server processes it and closes; nothing is answered, so nothing is awaited.
 */
public final class CancelForwarder {

    private static final Logger log = LoggerFactory.getLogger(CancelForwarder.class);

    private final Transport transport;

    public CancelForwarder(Transport transport) {
        this.transport = transport;
    }

    void cancel(EventLoop loop, BackendTarget target, BackendKeyData serverKey) {
        new Bootstrap()
                .group(loop)
                .channel(transport.channelClassFor(target.unixSocket()))
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel channel) {}
                })
                .connect(transport.remoteAddress(target.unixSocket(), target.host(), target.port()))
                .addListener((ChannelFutureListener) connected -> {
                    if (!connected.isSuccess()) {
                        log.warn("could not send a cancel request to backend {} at {}: {}", target.name(),
                                target.address(), connected.cause().toString());
                        return;
                    }
                    ByteBuf request = connected.channel().alloc().buffer(16);
                    new CancelRequest(serverKey.processId(), serverKey.secretKey()).encode(request);
                    connected.channel().writeAndFlush(request).addListener(ChannelFutureListener.CLOSE);
                });
    }
}

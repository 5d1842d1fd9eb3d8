package io.memogate.proxy.pg.session;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/** The backend leg's events, handed to its {@link PgSession}. One instance per connection. */
final class BackendHandler extends ChannelInboundHandlerAdapter {

    private final PgSession session;

    BackendHandler(PgSession session) {
        this.session = session;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        session.backendRead((ByteBuf) msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        session.backendReadComplete();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        session.backendWritabilityChanged();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        session.backendFailed(cause);
    }
}

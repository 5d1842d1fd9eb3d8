package io.memogate.proxy.tds.session;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/** The server leg's events, handed to its {@link TdsSession}. One instance per connection. */
final class ServerHandler extends ChannelInboundHandlerAdapter {

    private final TdsSession session;

    ServerHandler(TdsSession session) {
        this.session = session;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        session.serverPacket((ByteBuf) msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        session.serverReadComplete();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        session.serverWritabilityChanged();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        session.serverFailed(cause);
    }
}

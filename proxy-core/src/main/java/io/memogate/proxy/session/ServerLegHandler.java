package io.memogate.proxy.session;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * A server connection's events, handed to the wing's session that owns the connection: each frame the
 * wing's framer made, the end of a read, writability, a failure. One instance per connection.
 */
public final class ServerLegHandler extends ChannelInboundHandlerAdapter {

    /** What a wing's session does with its server connection's events, on its event loop. */
    public interface ServerLeg {

        /** A frame of the server's, owned by the session from here on. */
        void serverFrame(ByteBuf frame);

        void serverReadComplete();

        void serverWritabilityChanged();

        void serverFailed(Throwable cause);
    }

    private final ServerLeg session;

    public ServerLegHandler(ServerLeg session) {
        this.session = session;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        session.serverFrame((ByteBuf) msg);
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

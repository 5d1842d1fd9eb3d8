package io.memogate.bench.relay;

import io.memogate.proxy.server.Transport;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import java.net.SocketAddress;

/**
 * One leg of a {@link ByteRelay} connection: what it reads is written to the other leg and flushed at the end of
 * the read; it is read again only while the other leg can take more, and the other leg is read again when this
 * one can (Netty's HexDumpProxy, and the proxy's {@code SessionLegs}). Either leg closing closes the other once
 * what was written to it has gone out.
 */
class RelayLeg extends ChannelInboundHandlerAdapter {

    /** The other leg; null until the server's leg has connected. */
    protected Channel peer;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
        peer.write(message, peer.voidPromise());
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        peer.flush();
        if (peer.isWritable()) {
            ctx.channel().read();
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (ctx.channel().isWritable() && peer != null) {
            peer.read();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        closeAfterFlush(peer);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        closeAfterFlush(ctx.channel());
    }

    private static void closeAfterFlush(Channel channel) {
        if (channel != null && channel.isActive()) {
            channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        }
    }

    /** The client's leg: it opens the server's on the same event loop and starts both reading once connected. */
    static final class ClientSide extends RelayLeg {

        private final Transport transport;
        private final SocketAddress server;

        ClientSide(Transport transport, SocketAddress server) {
            this.transport = transport;
            this.server = server;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            Channel client = ctx.channel();
            ServerSide serverSide = new ServerSide(client);
            new Bootstrap()
                    .group(client.eventLoop())
                    .channel(transport.socketChannelClass())
                    .option(ChannelOption.AUTO_READ, false)
                    .option(ChannelOption.TCP_NODELAY, true)
                    .handler(serverSide)
                    .connect(server)
                    .addListener((ChannelFutureListener) connected -> {
                        if (connected.isSuccess() && !client.isActive()) {
                            connected.channel().close(); // the client left while the server's leg connected
                        } else if (connected.isSuccess()) {
                            peer = connected.channel();
                            client.read();
                            peer.read();
                        } else {
                            client.close();
                        }
                    });
        }
    }

    /** The server's leg: its peer, the client's leg, is known from the start. */
    static final class ServerSide extends RelayLeg {

        ServerSide(Channel client) {
            this.peer = client;
        }
    }
}

package io.memogate.proxy.pg.session;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.DuplexChannel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The backend leg's events, handed to its {@link PgSession}. One instance per connection. */
final class BackendHandler extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(BackendHandler.class);

    private final PgSession session;
    /** A write to the server failed: its output is shut down, what it sent is still read. */
    private boolean writeFailed;

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

    /**
     * A write that fails leaves the connection open for reading (AUTO_CLOSE is off, {@link BackendConnector}): the
     * server closed or reset it, most often right after a FATAL of its own that the proxy has not read yet, as
     * when it refused a message the client pipelined. As libpq does after a failed write, the proxy reads on, so
     * the client gets that FATAL and what came before it; the server's end of the connection then ends the
     * session ({@link PgSession#backendClosed}). The writes after it fail too, and say nothing new.
     */
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (ctx.channel() instanceof DuplexChannel leg && leg.isOpen() && leg.isOutputShutdown()
                && ProtocolFaults.describe(cause).isEmpty()) { // bytes that break the protocol end it as ever
            if (!writeFailed) {
                writeFailed = true;
                log.warn("backend connection of {} to {} failed: {}; reading what the server sent before",
                        session.info, session.target == null ? "?" : session.target.address(),
                        ConnectFailure.plainMessage(cause));
            }
            return;
        }
        session.backendFailed(cause);
    }
}

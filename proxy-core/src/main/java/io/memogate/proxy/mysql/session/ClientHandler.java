package io.memogate.proxy.mysql.session;

import io.memogate.proxy.admission.SessionInfo;
import io.memogate.proxy.mysql.message.MalformedPacketException;
import io.memogate.proxy.mysql.message.MySqlErrors;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.TooLongFrameException;
import java.io.IOException;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The client leg's events, handed to its {@link MySqlSession}. One instance per connection. */
public final class ClientHandler extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(ClientHandler.class);

    private final MySqlSession session;

    public ClientHandler(MySqlSession session) {
        this.session = session;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        session.clientActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            session.clientFrame((ByteBuf) msg);
        } catch (MalformedPacketException e) {
            malformed(ctx, e.getMessage());
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        session.clientReadComplete();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        session.clientWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        session.clientClosed();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof TooLongFrameException tooLarge) { // a header over the limit, or parts that pass it
            log.info("closing client {}: {}", SessionInfo.describe(ctx.channel().remoteAddress()), tooLarge.getMessage());
            session.sendErrorAndClose(MySqlErrors.packetTooLarge(session.services.limits().maxMessageBytes()));
        } else if (cause instanceof MalformedPacketException || cause.getCause() instanceof MalformedPacketException) {
            malformed(ctx, (cause instanceof MalformedPacketException ? cause : cause.getCause()).getMessage());
        } else if (cause instanceof SSLException || cause.getCause() instanceof SSLException) {
            // A TLS handshake or record the client broke: nothing can be said to it in the protocol any more.
            log.info("closing client {}: TLS failed: {}", SessionInfo.describe(ctx.channel().remoteAddress()),
                    (cause instanceof SSLException ? cause : cause.getCause()).getMessage());
            session.clientClosed();
        } else if (cause instanceof IOException) {
            log.debug("client connection {} failed: {}", SessionInfo.describe(ctx.channel().remoteAddress()), cause.toString());
            session.clientClosed();
        } else {
            log.error("unexpected error in session {}", session, cause);
            session.sendErrorAndClose(MySqlErrors.internal(cause.toString()));
        }
    }

    private void malformed(ChannelHandlerContext ctx, String what) {
        log.info("closing client {}: {}", SessionInfo.describe(ctx.channel().remoteAddress()), what);
        session.sendErrorAndClose(MySqlErrors.malformed(what));
    }
}

package io.memogate.proxy.tds.session;

import io.memogate.proxy.admission.SessionInfo;
import io.memogate.proxy.tds.message.MalformedPacketException;
import io.memogate.proxy.tds.message.TdsErrors;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.TooLongFrameException;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The client leg's events, handed to its {@link TdsSession}. One instance per connection. */
public final class ClientHandler extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(ClientHandler.class);

    private final TdsSession session;

    public ClientHandler(TdsSession session) {
        this.session = session;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        session.clientActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            session.clientMessage((ByteBuf) msg);
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
        Throwable why = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
        if (why instanceof TooLongFrameException tooLarge) {
            log.info("closing client {}: {}", SessionInfo.describe(ctx.channel().remoteAddress()), tooLarge.getMessage());
            session.sendErrorAndClose(TdsErrors.messageTooLarge(session.services.limits().maxMessageBytes()));
        } else if (why instanceof MalformedPacketException || why instanceof CorruptedFrameException) {
            malformed(ctx, why.getMessage());
        } else if (why instanceof IOException) {
            log.debug("client connection {} failed: {}", SessionInfo.describe(ctx.channel().remoteAddress()), why.toString());
            session.clientClosed();
        } else {
            log.error("unexpected error in session {}", session, cause);
            session.sendErrorAndClose(TdsErrors.internal(cause.toString()));
        }
    }

    private void malformed(ChannelHandlerContext ctx, String what) {
        log.info("closing client {}: {}", SessionInfo.describe(ctx.channel().remoteAddress()), what);
        session.sendErrorAndClose(TdsErrors.malformed(what));
    }
}

package io.memogate.proxy.pg.session;

import io.memogate.proxy.admission.SessionInfo;
import io.memogate.proxy.pg.codec.MessageOverLimitException;
import io.memogate.proxy.pg.message.MalformedMessageException;
import io.memogate.proxy.pg.message.backend.PgErrors;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.TooLongFrameException;
import java.io.IOException;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The client leg's events, handed to its {@link PgSession}. One instance per connection. */
public final class ClientHandler extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(ClientHandler.class);

    private final PgSession session;

    public ClientHandler(PgSession session) {
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
        } catch (MalformedMessageException e) {
            session.protocolViolation(e.getMessage());
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
        if (session.state == PgSession.State.STARTUP) {
            session.startup.clientGone();
        }
        session.clientClosed();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        Optional<String> fault = ProtocolFaults.describe(cause);
        if ((cause instanceof TooLongFrameException || cause instanceof CorruptedFrameException)
                && session.state == PgSession.State.STARTUP) {
            // A startup packet over PostgreSQL's limit or under 8 bytes: PostgreSQL logs it in these words and
            // closes. A driver that wrote its Terminate ('X', length 4) ahead of its StartupMessage reads
            // the length 0x58000000 here, and expects the silence it gets from PostgreSQL.
            session.startup.unanswered("invalid length of startup packet");
        } else if (cause instanceof MessageOverLimitException over && fault.isPresent()) {
            session.protocolViolation(fault.get(), PgErrors.messageOverLimit(fault.get(), over.limit()));
        } else if (fault.isPresent()) {
            session.protocolViolation(fault.get());
        } else if (cause instanceof IOException || cause instanceof DecoderException) {
            // Connection reset, TLS failure: nothing can be sent any more.
            log.debug("client connection {} failed: {}", SessionInfo.describe(ctx.channel().remoteAddress()),
                    cause.toString());
            session.clientClosed();
        } else {
            log.error("unexpected error in session {}", session, cause);
            session.sendFatalAndClose(PgErrors.internal(cause.toString()));
        }
    }
}

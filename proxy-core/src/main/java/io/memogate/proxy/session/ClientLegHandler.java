package io.memogate.proxy.session;

import io.memogate.proxy.admission.SessionInfo;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.TooLongFrameException;
import java.io.IOException;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client connection's events, handed to the wing's session that owns the connection, and its failures sorted
 * into what the client is told in its protocol (a message over the limit, bytes the protocol cannot mean, an
 * error of the proxy's own) and what leaves nobody to tell (a reset, a broken TLS record). One instance per
 * connection.
 */
public final class ClientLegHandler extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(ClientLegHandler.class);

    /** What a wing's session does with its client connection's events, on its event loop. */
    public interface ClientLeg {

        void clientActive();

        /**
         * A frame of the client's, owned by the session from here on.
         *
         * @throws MalformedInputException for bytes the protocol cannot mean
         */
        void clientFrame(ByteBuf frame);

        void clientReadComplete();

        void clientWritabilityChanged();

        /** The connection is gone, or nothing more can be said on it. */
        void clientClosed();

        /** Tells the client its message passed {@code limits.maxMessageBytes}, and closes. */
        void refuseTooLarge();

        /** Tells the client its bytes mean nothing in the protocol ({@code what}), and closes. */
        void refuseMalformed(String what);

        /** Tells the client the proxy failed ({@code what}), and closes; as {@link SessionLoop#failInternally}. */
        void failInternally(String what);
    }

    private final ClientLeg session;

    public ClientLegHandler(ClientLeg session) {
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
        } catch (MalformedInputException e) {
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
        // A decoder wraps what its decode threw; the framer's own TooLongFrameException comes bare.
        Throwable why = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
        String client = SessionInfo.describe(ctx.channel().remoteAddress());
        if (why instanceof TooLongFrameException tooLarge) { // a header over the limit, or parts that pass it
            log.info("closing client {}: {}", client, tooLarge.getMessage());
            session.refuseTooLarge();
        } else if (why instanceof MalformedInputException || why instanceof CorruptedFrameException) {
            malformed(ctx, why.getMessage());
        } else if (why instanceof SSLException) {
            // A TLS handshake or record the client broke: nothing can be said to it in the protocol any more.
            log.info("closing client {}: TLS failed: {}", client, why.getMessage());
            session.clientClosed();
        } else if (why instanceof IOException) {
            log.debug("client connection {} failed: {}", client, why.toString());
            session.clientClosed();
        } else {
            log.error("unexpected error in session {}", session, cause);
            session.failInternally(cause.toString());
        }
    }

    private void malformed(ChannelHandlerContext ctx, String what) {
        log.info("closing client {}: {}", SessionInfo.describe(ctx.channel().remoteAddress()), what);
        session.refuseMalformed(what);
    }
}

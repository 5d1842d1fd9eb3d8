package io.memogate.proxy.tls;

import io.memogate.proxy.admission.SessionInfo;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * PostgreSQL 17's direct TLS (libpq's {@code sslnegotiation=direct}, pgjdbc's {@code sslNegotiation=direct}):
 * the client starts its TLS handshake at once instead of sending an SSLRequest first. This looks at the
 * first bytes of a client connection once. A TLS record puts TLS in front of the pipeline, and the
 * startup packets then come through it; on a listener without TLS the connection is closed, as
 * PostgreSQL closes it, since nothing the client could read can be sent. Anything else is a startup
 * packet and passes on untouched. Either way the detector then leaves the pipeline, handing on what it
 * buffered.
 *
 * <p>Whether a direct client also named the protocol by ALPN is checked at its first startup packet,
 * where an error can be sent through the TLS connection ({@link #negotiatedPostgres}).
 */
public final class DirectTlsDetector extends ByteToMessageDecoder {

    /** The ALPN protocol name PostgreSQL 17 requires of direct TLS clients and offers to all. */
    public static final String ALPN_PROTOCOL = "postgresql";
    /** The pipeline name of the TLS handler, whichever way TLS was asked for. */
    public static final String TLS_HANDLER = "tls";

    private static final Logger log = LoggerFactory.getLogger(DirectTlsDetector.class);
    /** A TLS record header: content type, version, length (SslHandler.isEncrypted needs this much). */
    private static final int RECORD_HEADER_BYTES = 5;
    /** The content type of a TLS handshake record, which starts every TLS connection (the ClientHello). */
    private static final byte TLS_HANDSHAKE_RECORD = 0x16;

    private final Optional<SslContext> tls;

    public DirectTlsDetector(Optional<SslContext> tls) {
        this.tls = tls;
    }

    /** True when {@code handler}'s handshake agreed on PostgreSQL by ALPN. */
    public static boolean negotiatedPostgres(SslHandler handler) {
        return ALPN_PROTOCOL.equals(handler.applicationProtocol());
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        // Only a TLS handshake record starts with 0x16, and PostgreSQL 17 tells direct TLS by that byte alone
        // (ProcessSSLStartup). Anything else is decided at once to be a startup packet, so that even one too
        // short to be one (a length of 4) or a length word no packet has (0xffffffff) is answered, not left
        // waiting for a fifth byte until the login timeout.
        if (in.isReadable() && in.getByte(in.readerIndex()) != TLS_HANDSHAKE_RECORD) {
            ctx.pipeline().remove(this);
            return;
        }
        // Every startup packet is longer than a record header, so waiting for five bytes delays nobody.
        if (in.readableBytes() < RECORD_HEADER_BYTES) {
            return;
        }
        if (!SslHandler.isEncrypted(in, false)) {
            ctx.pipeline().remove(this);
            return;
        }
        if (tls.isEmpty()) {
            log.info("closing client {}: it started TLS directly (sslnegotiation=direct) and this listener has no TLS",
                    SessionInfo.describe(ctx.channel().remoteAddress()));
            in.skipBytes(in.readableBytes());
            ctx.close();
            return;
        }
        ctx.pipeline().replace(this, TLS_HANDLER, tls.get().newHandler(ctx.alloc()));
    }
}

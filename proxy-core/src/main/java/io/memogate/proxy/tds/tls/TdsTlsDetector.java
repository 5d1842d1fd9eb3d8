package io.memogate.proxy.tds.tls;

import io.memogate.proxy.admission.SessionInfo;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.ssl.SslContext;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * TDS 8.0 ({@code encrypt=strict}): the client starts its TLS handshake on TCP before any TDS packet, and sends
 * PRELOGIN inside it. Its first byte tells it apart, a TLS handshake record's 0x16 where a TDS 7.x client sends a
 * PRELOGIN's 0x12 (or a LOGIN7's 0x10). This reads that one byte: TLS puts the strict listener's handler in its
 * place; anything else leaves the pipeline untouched. On a listener without a certificate a strict client is
 * closed, since nothing it could read can be sent to it, and the log says why.
 */
public final class TdsTlsDetector extends ByteToMessageDecoder {

    /** The pipeline name of the TLS handler of the client's leg, whichever way its TLS started. */
    public static final String TLS_HANDLER = "tls";

    private static final Logger log = LoggerFactory.getLogger(TdsTlsDetector.class);
    private static final byte TLS_HANDSHAKE_RECORD = 0x16;

    private final Optional<SslContext> strict;

    public TdsTlsDetector(Optional<SslContext> strict) {
        this.strict = strict;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (!in.isReadable()) {
            return;
        }
        if (in.getByte(in.readerIndex()) != TLS_HANDSHAKE_RECORD) {
            ctx.pipeline().remove(this);
            return;
        }
        if (strict.isEmpty()) {
            log.info("closing client {}: it starts TLS at once (TDS 8.0, encrypt=strict) and this listener has no "
                    + "certificate (listeners[].tls)", SessionInfo.describe(ctx.channel().remoteAddress()));
            in.skipBytes(in.readableBytes());
            ctx.close();
            return;
        }
        ctx.pipeline().replace(this, TLS_HANDLER, strict.get().newHandler(ctx.alloc()));
    }
}

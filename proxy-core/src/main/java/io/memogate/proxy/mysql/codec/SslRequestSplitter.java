package io.memogate.proxy.mysql.codec;

import io.memogate.proxy.mysql.message.HandshakeResponse;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.ssl.SslContext;
import java.util.List;

/**
 * Starts TLS toward a client after its SSLRequest (protocol "Protocol::SSLRequest"). The client does not wait
 * for an answer: it sends its TLS ClientHello right behind the request, so both may come in one read, and the
 * packet framer must never see the ClientHello. First on the client pipeline of a listener with TLS, this
 * reads the client's first packet: an SSLRequest is handed on past a TLS handler put in behind this one, which
 * then gets every byte after the request; anything else is left to the framer as it came. Either way this
 * handler then leaves the pipeline.
 */
public final class SslRequestSplitter extends ByteToMessageDecoder {

    /** The name of the TLS handler this puts on the client pipeline. */
    public static final String TLS_HANDLER = "tls";

    private final SslContext tls;

    public SslRequestSplitter(SslContext tls) {
        this.tls = tls;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (in.readableBytes() < MySqlPackets.HEADER_BYTES) {
            return;
        }
        int length = MySqlPackets.HEADER_BYTES + MySqlPackets.payloadLength(in);
        if (length != MySqlPackets.HEADER_BYTES + HandshakeResponse.FIXED_BYTES) {
            ctx.pipeline().remove(this); // what is buffered goes on to the framer
            return;
        }
        if (in.readableBytes() < length) {
            return;
        }
        if (!HandshakeResponse.isSslRequest(in)) {
            ctx.pipeline().remove(this);
            return;
        }
        ByteBuf request = in.readRetainedSlice(length);
        ctx.pipeline().addAfter(ctx.name(), TLS_HANDLER, tls.newHandler(ctx.alloc()));
        // Removal is finished when decode returns: the bytes behind the request then go to the TLS handler.
        ctx.pipeline().remove(this);
        ctx.pipeline().context(TLS_HANDLER).fireChannelRead(request);
    }
}

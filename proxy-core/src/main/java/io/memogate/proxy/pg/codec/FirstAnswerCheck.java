package io.memogate.proxy.pg.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;

/**
 * Checks the first byte a server sends after the StartupMessage, ahead of the framing. A PostgreSQL
 * server's first message is Authentication ('R'), ErrorResponse ('E') or NegotiateProtocolVersion ('v');
 * any other byte means the backend is not a PostgreSQL server (a MySQL port sends its greeting, an HTTP
 * port "HTTP/1.1 400"), whose bytes relayed as messages would reach the client as garbage. Such a
 * connection fails with {@link NotPostgresException}; a good one loses this handler at its first read.
 */
public final class FirstAnswerCheck extends ChannelInboundHandlerAdapter {

    /** The backend's first byte cannot begin a PostgreSQL server's first message. */
    public static final class NotPostgresException extends RuntimeException {
        private final byte firstByte;

        NotPostgresException(byte firstByte) {
            super(String.format("the server does not speak PostgreSQL's protocol: its first byte was 0x%02x%s",
                    firstByte, firstByte >= 0x20 && firstByte < 0x7f ? " ('" + (char) firstByte + "')" : ""),
                    null, false, false);
            this.firstByte = firstByte;
        }

        public byte firstByte() {
            return firstByte;
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf bytes) || !bytes.isReadable()) {
            ctx.fireChannelRead(msg);
            return;
        }
        byte first = bytes.getByte(bytes.readerIndex());
        ctx.pipeline().remove(this);
        if (first == 'R' || first == 'E' || first == 'v') {
            ctx.fireChannelRead(msg);
        } else {
            ReferenceCountUtil.release(msg);
            ctx.fireExceptionCaught(new NotPostgresException(first));
        }
    }
}

package io.memogate.proxy.pg.session;

import io.memogate.proxy.pg.session.BackendConnector.BackendConnectException;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;

/**
 * Checks the first byte a server sends after the StartupMessage, ahead of the framing. A PostgreSQL
 * server's first message is Authentication ('R'), ErrorResponse ('E') or NegotiateProtocolVersion ('v'),
 * and a NoticeResponse ('N') is let through in case an extension's hook speaks before the login; any
 * other byte means the backend is not a PostgreSQL server (a MySQL port sends its greeting, an HTTP
 * port "HTTP/1.1 400"), whose bytes relayed as messages would reach the client as garbage or leave it
 * waiting. One byte is a heuristic, not a proof: it catches the usual wrong ports. Such a connection fails with a {@link BackendConnectException}. The first byte also ends the
 * connection's answer deadline ({@link BackendConnector}), and this handler leaves the pipeline.
 */
final class FirstAnswerCheck extends ChannelInboundHandlerAdapter {

    private final Future<?> answerDeadline;

    FirstAnswerCheck(Future<?> answerDeadline) {
        this.answerDeadline = answerDeadline;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf bytes) || !bytes.isReadable()) {
            ctx.fireChannelRead(msg);
            return;
        }
        answerDeadline.cancel(false);
        byte first = bytes.getByte(bytes.readerIndex());
        ctx.pipeline().remove(this);
        if (first == 'R' || first == 'E' || first == 'v' || first == 'N') {
            ctx.fireChannelRead(msg);
        } else {
            ReferenceCountUtil.release(msg);
            ctx.fireExceptionCaught(new BackendConnectException(String.format(
                    "the server does not speak PostgreSQL's protocol: its first byte was 0x%02x%s", first,
                    first >= 0x20 && first < 0x7f ? " ('" + (char) first + "')" : ""), null, null));
        }
    }
}

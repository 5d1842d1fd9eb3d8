package io.memogate.proxy.pg.session;

import io.memogate.proxy.pg.message.backend.Authentication;
import io.memogate.proxy.pg.message.backend.BackendType;
import io.memogate.proxy.pg.message.backend.ErrorResponse;
import io.memogate.proxy.pg.session.BackendConnector.BackendConnectException;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;
import java.util.Set;

/**
 * Checks the first message a server sends after the StartupMessage, ahead of the framing. A PostgreSQL
 * server's first message is Authentication ('R'), ErrorResponse ('E') or NegotiateProtocolVersion ('v'),
 * and a NoticeResponse ('N') is let through in case an extension's hook speaks before the login; any
 * other first byte means the backend is not a PostgreSQL server (a MySQL port sends its greeting, an HTTP
 * port "HTTP/1.1 400"), whose bytes relayed as messages would reach the client as garbage or leave it
 * waiting. A MySQL greeting whose length happens to be 69, 78 or 82 bytes starts with 'E', 'N' or 'R'
 * itself, so as far as the first read holds them the message's own fields are checked too: an
 * authentication request's code must be one PostgreSQL sends, and an error or notice must end with the
 * zero byte that ends its fields. Such a connection fails with a {@link BackendConnectException}. The
 * first bytes also end the connection's answer deadline ({@link BackendConnector}), and this handler
 * leaves the pipeline.
 */
final class FirstAnswerCheck extends ChannelInboundHandlerAdapter {

    /**
     * The authentication request codes PostgreSQL sends: Ok, KerberosV5, CleartextPassword, MD5Password,
     * SCMCredential, GSS, GSSContinue, SSPI, SASL, SASLContinue, SASLFinal.
     */
    private static final Set<Integer> AUTHENTICATION_CODES = Set.of(0, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12);

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
        ctx.pipeline().remove(this);
        String problem = problem(bytes);
        if (problem == null) {
            ctx.fireChannelRead(msg);
        } else {
            ReferenceCountUtil.release(msg);
            ctx.fireExceptionCaught(new BackendConnectException(
                    "the server does not speak PostgreSQL's protocol: " + problem, null, null));
        }
    }

    /** Why the first bytes are no PostgreSQL server's first message; null when they may be one. */
    static String problem(ByteBuf bytes) {
        int start = bytes.readerIndex();
        byte first = bytes.getByte(start);
        if (first != Authentication.TYPE && first != ErrorResponse.TYPE && first != BackendType.NEGOTIATE_PROTOCOL_VERSION
                && first != ErrorResponse.NOTICE_TYPE) {
            return String.format("its first byte was 0x%02x%s", first,
                    first >= 0x20 && first < 0x7f ? " ('" + (char) first + "')" : "");
        }
        int readable = bytes.readableBytes();
        if (first == Authentication.TYPE && readable >= 9) {
            int code = bytes.getInt(start + 5);
            return AUTHENTICATION_CODES.contains(code) ? null
                    : "its first message was an authentication request of a kind PostgreSQL has not (" + code + ")";
        }
        if ((first == ErrorResponse.TYPE || first == ErrorResponse.NOTICE_TYPE) && readable >= 5) {
            int length = bytes.getInt(start + 1);
            boolean whole = length >= 5 && readable >= 1 + length;
            return !whole || bytes.getByte(start + length) == 0 ? null
                    : "its first message, " + (first == ErrorResponse.TYPE ? "an error" : "a notice")
                            + " by its first byte, does not end its fields with a zero byte";
        }
        return null;
    }
}

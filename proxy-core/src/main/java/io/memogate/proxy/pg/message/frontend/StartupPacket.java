package io.memogate.proxy.pg.message.frontend;

import io.memogate.proxy.pg.message.UnansweredPacketException;
import io.netty.buffer.ByteBuf;

/**
 * The untyped first message of a connection: int32 length, int32 code, body. The code is a protocol
 * version (StartupMessage) or one of the special request codes
 * (https://www.postgresql.org/docs/current/protocol-message-formats.html).
 */
public sealed interface StartupPacket extends FrontendMessage
        permits StartupMessage, SslRequest, GssEncRequest, CancelRequest {

    int SSL_REQUEST_CODE = 80877103;
    int GSSENC_REQUEST_CODE = 80877104;
    int CANCEL_REQUEST_CODE = 80877102;

    /**
     * Decodes a whole untyped frame (length field included).
     *
     * @throws UnansweredPacketException for a fault PostgreSQL closes on without answering
     * @throws io.memogate.proxy.pg.message.MalformedMessageException for one it answers with FATAL
     */
    static StartupPacket decode(ByteBuf frame) {
        if (frame.readableBytes() < 8) {
            throw new UnansweredPacketException("invalid length of startup packet"); // PostgreSQL's words, under 8 bytes
        }
        int code = frame.getInt(frame.readerIndex() + 4);
        return switch (code) {
            case SSL_REQUEST_CODE -> SslRequest.INSTANCE;
            case GSSENC_REQUEST_CODE -> GssEncRequest.INSTANCE;
            case CANCEL_REQUEST_CODE -> CancelRequest.decode(frame);
            default -> StartupMessage.decode(frame);
        };
    }
}

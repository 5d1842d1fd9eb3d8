package io.memogate.proxy.pg.message.frontend;

import io.memogate.proxy.pg.message.MalformedMessageException;
import io.memogate.proxy.pg.message.SecretKey;
import io.netty.buffer.ByteBuf;

/**
 * CancelRequest, sent on a new connection: int32 length, int32 code, int32 process id, secret key
 * (4 bytes in protocol 3.0; the rest of the packet, up to 256 bytes, in 3.2).
 */
public record CancelRequest(int processId, SecretKey secretKey) implements StartupPacket {

    static CancelRequest decode(ByteBuf frame) {
        int start = frame.readerIndex();
        int length = frame.getInt(start);
        if (length < 16 || frame.readableBytes() < length) { // PostgreSQL's words for the same fault
            throw new MalformedMessageException("invalid length of query cancel packet");
        }
        int processId = frame.getInt(start + 8);
        ByteBuf secret = frame.slice(start + 12, length - 12);
        return new CancelRequest(processId, SecretKey.read(secret, secret.readableBytes()));
    }

    @Override
    public void encode(ByteBuf out) {
        out.writeInt(12 + secretKey.length());
        out.writeInt(CANCEL_REQUEST_CODE);
        out.writeInt(processId);
        secretKey.writeTo(out);
    }
}

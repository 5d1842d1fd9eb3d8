package io.memogate.proxy.pg.message.frontend;

import io.memogate.proxy.pg.message.SecretKey;
import io.memogate.proxy.pg.message.UnansweredPacketException;
import io.netty.buffer.ByteBuf;

/**
 * CancelRequest, sent on a new connection: int32 length, int32 code, int32 process id, secret key
 * (4 bytes in protocol 3.0; the rest of the packet, up to 256 bytes, in 3.2).
 */
public record CancelRequest(int processId, SecretKey secretKey) implements StartupPacket {

    /** PostgreSQL's words for these faults (ProcessStartupPacket), which it answers with nothing. */
    static CancelRequest decode(ByteBuf frame) {
        int start = frame.readerIndex();
        int length = frame.getInt(start);
        if (length < 12 || frame.readableBytes() < length) {
            throw new UnansweredPacketException("invalid length of query cancel packet");
        }
        int secretLength = length - 12;
        if (secretLength < 4 || secretLength > SecretKey.MAX_LENGTH) { // no key the proxy issues is shorter
            throw new UnansweredPacketException("invalid length of query cancel key");
        }
        int processId = frame.getInt(start + 8);
        return new CancelRequest(processId, SecretKey.read(frame.slice(start + 12, secretLength), secretLength));
    }

    @Override
    public void encode(ByteBuf out) {
        out.writeInt(12 + secretKey.length());
        out.writeInt(CANCEL_REQUEST_CODE);
        out.writeInt(processId);
        secretKey.writeTo(out);
    }
}

package io.memogate.proxy.pg.message.backend;

import io.memogate.proxy.pg.message.PgWire;
import io.memogate.proxy.pg.message.SecretKey;
import io.netty.buffer.ByteBuf;

/**
 * BackendKeyData ('K'): the key a client needs to cancel its queries. The proxy keeps the server's
 * key and gives the client the server's process id with a secret of its own, so cancels reach the
 * proxy, which knows the session.
 */
public record BackendKeyData(int processId, SecretKey secretKey) implements BackendMessage {

    public static final byte TYPE = 'K';

    public static BackendKeyData decode(ByteBuf frame) {
        ByteBuf body = PgWire.body(frame, TYPE);
        int processId = PgWire.readInt(body);
        return new BackendKeyData(processId, SecretKey.read(body, body.readableBytes()));
    }

    @Override
    public void encode(ByteBuf out) {
        out.writeByte(TYPE);
        out.writeInt(8 + secretKey.length());
        out.writeInt(processId);
        secretKey.writeTo(out);
    }
}

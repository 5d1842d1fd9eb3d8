package io.memogate.proxy.pg.message.frontend;

import io.memogate.proxy.pg.message.PgWire;
import io.netty.buffer.ByteBuf;

/** CopyFail ('f'): the client aborts a COPY FROM STDIN with a reason. */
public record CopyFail(String reason) implements FrontendMessage {

    public static final byte TYPE = 'f';

    public static CopyFail decode(ByteBuf frame) {
        return new CopyFail(PgWire.readCString(PgWire.body(frame, TYPE)));
    }

    @Override
    public void encode(ByteBuf out) {
        int lengthIndex = PgWire.beginMessage(out, TYPE);
        PgWire.writeCString(out, reason);
        PgWire.endMessage(out, lengthIndex);
    }
}

package io.memogate.proxy.pg.message.frontend;

import io.memogate.proxy.pg.message.PgWire;
import io.netty.buffer.ByteBuf;

/** Query ('Q'): a simple-protocol query string, possibly several statements. An admission point. */
public record Query(String sql) implements FrontendMessage {

    public static final char TYPE = 'Q';

    public static Query decode(ByteBuf frame) {
        return new Query(PgWire.readCString(PgWire.body(frame, TYPE)));
    }

    @Override
    public void encode(ByteBuf out) {
        int lengthIndex = PgWire.beginMessage(out, TYPE);
        PgWire.writeCString(out, sql);
        PgWire.endMessage(out, lengthIndex);
    }
}

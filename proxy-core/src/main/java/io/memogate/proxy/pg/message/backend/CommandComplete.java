package io.memogate.proxy.pg.message.backend;

import io.memogate.proxy.pg.message.PgWire;
import io.netty.buffer.ByteBuf;

/** CommandComplete ('C'): a statement finished, with its command tag ("SELECT 3", "INSERT 0 1"). */
public record CommandComplete(String tag) implements BackendMessage {

    public static final byte TYPE = 'C';

    public static CommandComplete decode(ByteBuf frame) {
        return new CommandComplete(PgWire.readCString(PgWire.body(frame, TYPE)));
    }

    @Override
    public void encode(ByteBuf out) {
        int lengthIndex = PgWire.beginMessage(out, TYPE);
        PgWire.writeCString(out, tag);
        PgWire.endMessage(out, lengthIndex);
    }
}

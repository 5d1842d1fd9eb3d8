package io.memogate.proxy.pg.message.backend;

import io.memogate.proxy.pg.message.PgWire;
import io.netty.buffer.ByteBuf;

/**
 * RowDescription ('T'): the first response of a query that returns rows, so compilation is over.
 * Only the field count is decoded; the field descriptions are forwarded untouched.
 */
public record RowDescription(int fieldCount) implements BackendMessage {

    public static final char TYPE = 'T';

    public static RowDescription decode(ByteBuf frame) {
        return new RowDescription(PgWire.body(frame, TYPE).readUnsignedShort());
    }

    /** Writes a RowDescription with no fields (tests only: a real one carries each field's description). */
    @Override
    public void encode(ByteBuf out) {
        out.writeByte(TYPE);
        out.writeInt(6);
        out.writeShort(0);
    }
}

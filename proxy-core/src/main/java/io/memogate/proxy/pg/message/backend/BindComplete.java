package io.memogate.proxy.pg.message.backend;

import io.netty.buffer.ByteBuf;

/** BindComplete ('2'): the statement is bound, so PostgreSQL has planned it. */
public record BindComplete() implements BackendMessage {

    public static final byte TYPE = '2';
    public static final BindComplete INSTANCE = new BindComplete();

    @Override
    public void encode(ByteBuf out) {
        out.writeByte(TYPE);
        out.writeInt(4);
    }
}

package io.memogate.proxy.pg.message.backend;

import io.netty.buffer.ByteBuf;

/** EmptyQueryResponse ('I'): the query string was empty. */
public record EmptyQueryResponse() implements BackendMessage {

    public static final byte TYPE = 'I';
    public static final EmptyQueryResponse INSTANCE = new EmptyQueryResponse();

    @Override
    public void encode(ByteBuf out) {
        out.writeByte(TYPE);
        out.writeInt(4);
    }
}

package io.memogate.proxy.pg.message.frontend;

import io.netty.buffer.ByteBuf;

/** Sync ('S'): ends an extended-protocol batch; the server answers ReadyForQuery. */
public record Sync() implements FrontendMessage {

    public static final byte TYPE = 'S';
    public static final Sync INSTANCE = new Sync();

    @Override
    public void encode(ByteBuf out) {
        out.writeByte(TYPE);
        out.writeInt(4);
    }
}

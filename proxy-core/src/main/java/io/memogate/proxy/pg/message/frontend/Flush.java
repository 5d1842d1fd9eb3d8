package io.memogate.proxy.pg.message.frontend;

import io.netty.buffer.ByteBuf;

/** Flush ('H'): asks the server to send what it has; no ReadyForQuery follows. */
public record Flush() implements FrontendMessage {

    public static final byte TYPE = 'H';
    public static final Flush INSTANCE = new Flush();

    @Override
    public void encode(ByteBuf out) {
        out.writeByte(TYPE);
        out.writeInt(4);
    }
}

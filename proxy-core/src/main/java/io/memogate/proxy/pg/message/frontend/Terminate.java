package io.memogate.proxy.pg.message.frontend;

import io.netty.buffer.ByteBuf;

/** Terminate ('X'): the client is leaving; forwarded, then both legs close. */
public record Terminate() implements FrontendMessage {

    public static final byte TYPE = 'X';
    public static final Terminate INSTANCE = new Terminate();

    @Override
    public void encode(ByteBuf out) {
        out.writeByte(TYPE);
        out.writeInt(4);
    }
}

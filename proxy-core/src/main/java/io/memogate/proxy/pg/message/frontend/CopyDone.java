package io.memogate.proxy.pg.message.frontend;

import io.netty.buffer.ByteBuf;

/** CopyDone ('c'): the client finished a COPY FROM STDIN. */
public record CopyDone() implements FrontendMessage {

    public static final byte TYPE = 'c';
    public static final CopyDone INSTANCE = new CopyDone();

    @Override
    public void encode(ByteBuf out) {
        out.writeByte(TYPE);
        out.writeInt(4);
    }
}

package io.memogate.proxy.pg.message.frontend;

import io.netty.buffer.ByteBuf;

/** Close ('C'): drops a prepared statement ('S') or a portal ('P'); the proxy forgets the statement's SQL. */
public record Close(StatementOrPortal target, String name) implements FrontendMessage {

    public static final byte TYPE = 'C';

    public static Close decode(ByteBuf frame) {
        return StatementOrPortal.decode(frame, TYPE, Close::new);
    }

    @Override
    public void encode(ByteBuf out) {
        StatementOrPortal.encode(out, TYPE, target, name);
    }
}

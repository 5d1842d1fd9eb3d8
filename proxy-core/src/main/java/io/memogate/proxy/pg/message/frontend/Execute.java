package io.memogate.proxy.pg.message.frontend;

import io.memogate.proxy.pg.message.PgWire;
import io.netty.buffer.ByteBuf;

/**
 * Execute ('E'): runs a bound portal. Clients' Executes are forwarded untouched and never decoded; the
 * proxy writes its own only to make the server fail a statement it refused (an Execute of a portal that
 * does not exist fails exactly where the refused statement would have, with no other effect).
 */
public record Execute(String portal, int maxRows) implements FrontendMessage {

    public static final char TYPE = 'E';

    @Override
    public void encode(ByteBuf out) {
        int lengthIndex = PgWire.beginMessage(out, TYPE);
        PgWire.writeCString(out, portal);
        out.writeInt(maxRows);
        PgWire.endMessage(out, lengthIndex);
    }
}

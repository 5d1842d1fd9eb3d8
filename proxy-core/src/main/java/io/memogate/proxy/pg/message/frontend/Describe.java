package io.memogate.proxy.pg.message.frontend;

import io.netty.buffer.ByteBuf;

/**
 * Describe ('D'): asks for a prepared statement's parameter types and columns ('S') or a portal's
 * columns ('P'). Relayed untouched to servers; decoded only where the proxy answers itself (the console).
 */
public record Describe(StatementOrPortal target, String name) implements FrontendMessage {

    public static final byte TYPE = 'D';

    public static Describe decode(ByteBuf frame) {
        return StatementOrPortal.decode(frame, TYPE, Describe::new);
    }

    @Override
    public void encode(ByteBuf out) {
        StatementOrPortal.encode(out, TYPE, target, name);
    }
}

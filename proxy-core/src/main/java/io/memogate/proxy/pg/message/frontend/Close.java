package io.memogate.proxy.pg.message.frontend;

import io.memogate.proxy.pg.message.MalformedMessageException;
import io.memogate.proxy.pg.message.PgWire;
import io.netty.buffer.ByteBuf;

/** Close ('C'): drops a prepared statement ('S') or a portal ('P'); the proxy forgets the statement's SQL. */
public record Close(Target target, String name) implements FrontendMessage {

    public static final char TYPE = 'C';

    public enum Target {
        STATEMENT('S'),
        PORTAL('P');

        private final char code;

        Target(char code) {
            this.code = code;
        }

        static Target of(byte code) {
            return switch (code) {
                case 'S' -> STATEMENT;
                case 'P' -> PORTAL;
                default -> throw new MalformedMessageException("Close target must be 'S' or 'P', was " + code);
            };
        }
    }

    public static Close decode(ByteBuf frame) {
        ByteBuf body = PgWire.body(frame, TYPE);
        Target target = Target.of(body.readByte());
        return new Close(target, PgWire.readCString(body));
    }

    @Override
    public void encode(ByteBuf out) {
        int lengthIndex = PgWire.beginMessage(out, TYPE);
        out.writeByte(target.code);
        PgWire.writeCString(out, name);
        PgWire.endMessage(out, lengthIndex);
    }
}

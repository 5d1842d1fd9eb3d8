package io.memogate.proxy.pg.message.frontend;

import io.memogate.proxy.pg.message.MalformedMessageException;
import io.memogate.proxy.pg.message.PgWire;
import io.netty.buffer.ByteBuf;
import java.util.function.BiFunction;

/** What a Describe or Close names: a prepared statement ('S') or a portal ('P'). */
public enum StatementOrPortal {
    STATEMENT('S'),
    PORTAL('P');

    private final char code;

    StatementOrPortal(char code) {
        this.code = code;
    }

    public char code() {
        return code;
    }

    /** Reads a Describe or Close: the kind, then the name, and nothing after it. */
    static <M> M decode(ByteBuf frame, byte type, BiFunction<StatementOrPortal, String, M> message) {
        ByteBuf body = PgWire.body(frame, type);
        StatementOrPortal target = of(PgWire.readByte(body));
        String name = PgWire.readCString(body);
        PgWire.expectEnd(body, type);
        return message.apply(target, name);
    }

    /** Writes a Describe or Close. */
    static void encode(ByteBuf out, byte type, StatementOrPortal target, String name) {
        int lengthIndex = PgWire.beginMessage(out, type);
        out.writeByte(target.code);
        PgWire.writeCString(out, name);
        PgWire.endMessage(out, lengthIndex);
    }

    private static StatementOrPortal of(byte code) {
        return switch (code) {
            case 'S' -> STATEMENT;
            case 'P' -> PORTAL;
            default -> throw new MalformedMessageException("the object kind must be 'S' or 'P', was "
                    + (code >= 0x20 && code < 0x7f ? "'" + (char) code + "'" : Integer.toString(code)));
        };
    }
}

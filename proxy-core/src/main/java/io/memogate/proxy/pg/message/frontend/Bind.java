package io.memogate.proxy.pg.message.frontend;

import io.memogate.proxy.pg.message.PgWire;
import io.netty.buffer.ByteBuf;

/**
 * Bind ('B'): the extended protocol's admission point, because PostgreSQL plans when a statement is
 * bound. Only the portal and statement names are decoded; parameter values and formats stay in the
 * forwarded frame, so {@link #encode} exists for tests only and writes a Bind with no parameters.
 */
public record Bind(String portalName, String statementName) implements FrontendMessage {

    public static final char TYPE = 'B';

    public static Bind decode(ByteBuf frame) {
        ByteBuf body = PgWire.body(frame, TYPE);
        String portal = PgWire.readCString(body);
        return new Bind(portal, PgWire.readCString(body));
    }

    /**
     * Checks the frame as {@link #decode} would, without making the names' Strings.
     *
     * @throws io.memogate.proxy.pg.message.MalformedMessageException as decode
     */
    public static void check(ByteBuf frame) {
        ByteBuf body = PgWire.body(frame, TYPE);
        PgWire.skipCString(body);
        PgWire.skipCString(body);
    }

    @Override
    public void encode(ByteBuf out) {
        int lengthIndex = PgWire.beginMessage(out, TYPE);
        PgWire.writeCString(out, portalName);
        PgWire.writeCString(out, statementName);
        out.writeShort(0); // parameter format codes
        out.writeShort(0); // parameter values
        out.writeShort(0); // result format codes
        PgWire.endMessage(out, lengthIndex);
    }
}

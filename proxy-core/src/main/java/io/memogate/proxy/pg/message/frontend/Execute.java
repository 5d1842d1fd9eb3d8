package io.memogate.proxy.pg.message.frontend;

import io.memogate.proxy.pg.message.PgWire;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * Execute ('E'): runs a bound portal; {@code maxRows} 0 means all rows. Clients' Executes are forwarded
 * untouched to servers and decoded only where the proxy answers itself (the console); the proxy writes
 * its own only to make the server fail a statement it refused (an Execute of a portal that does not
 * exist fails exactly where the refused statement would have, with no other effect).
 */
public record Execute(String portal, int maxRows) implements FrontendMessage {

    public static final byte TYPE = 'E';

    public static Execute decode(ByteBuf frame) {
        ByteBuf body = PgWire.body(frame, TYPE);
        Execute execute = new Execute(PgWire.readCString(body), PgWire.readInt(body));
        PgWire.expectEnd(body, TYPE);
        return execute;
    }

    /**
     * The portal a client's Execute frame (type byte first) names, leniently: "" for the unnamed one, which
     * drivers use for nearly every statement, without allocating; "" too for a frame without a terminated name,
     * which the server refuses anyway.
     */
    public static String portalOf(ByteBuf frame) {
        int start = frame.readerIndex() + 5;
        int length = frame.writerIndex() > start ? frame.bytesBefore(start, frame.writerIndex() - start, (byte) 0) : -1;
        return length <= 0 ? "" : frame.toString(start, length, StandardCharsets.UTF_8);
    }

    @Override
    public void encode(ByteBuf out) {
        int lengthIndex = PgWire.beginMessage(out, TYPE);
        PgWire.writeCString(out, portal);
        out.writeInt(maxRows);
        PgWire.endMessage(out, lengthIndex);
    }
}

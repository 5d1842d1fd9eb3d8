package io.memogate.proxy.pg.message.backend;

import io.memogate.proxy.pg.message.PgWire;
import io.netty.buffer.ByteBuf;

/** ParameterStatus ('S'): the server reports a run-time parameter (server_version, TimeZone, ...). */
public record ParameterStatus(String name, String value) implements BackendMessage {

    public static final byte TYPE = 'S';

    public static ParameterStatus decode(ByteBuf frame) {
        ByteBuf body = PgWire.body(frame, TYPE);
        String name = PgWire.readCString(body);
        return new ParameterStatus(name, PgWire.readCString(body));
    }

    @Override
    public void encode(ByteBuf out) {
        int lengthIndex = PgWire.beginMessage(out, TYPE);
        PgWire.writeCString(out, name);
        PgWire.writeCString(out, value);
        PgWire.endMessage(out, lengthIndex);
    }
}

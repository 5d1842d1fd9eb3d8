package io.memogate.proxy.pg.message.frontend;

import io.memogate.proxy.pg.message.MalformedMessageException;
import io.memogate.proxy.pg.message.PgWire;
import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;

/**
 * A Bind read whole, for where the proxy answers it itself (the console) rather than relaying it: the
 * names, how many parameter values it carries (the values themselves are skipped), and the result
 * columns' format codes. {@link Bind} reads only the names, which is all relaying needs.
 *
 * @param parameterCount the number of parameter values
 * @param resultFormats none: every column in text; one: that format for all; else one per column
 */
public record BoundPortal(String portalName, String statementName, int parameterCount, List<Short> resultFormats) {

    public BoundPortal {
        resultFormats = List.copyOf(resultFormats);
    }

    /** @throws MalformedMessageException when a count or length does not fit the frame */
    public static BoundPortal decode(ByteBuf frame) {
        ByteBuf body = PgWire.body(frame, Bind.TYPE);
        String portal = PgWire.readCString(body);
        String statement = PgWire.readCString(body);
        PgWire.skip(body, PgWire.readUnsignedShort(body) * Short.BYTES); // parameter format codes
        int parameters = PgWire.readUnsignedShort(body);
        for (int i = 0; i < parameters; i++) {
            int length = PgWire.readInt(body);
            if (length < -1) {
                throw new MalformedMessageException("Bind parameter " + (i + 1) + " has length " + length);
            }
            if (length > 0) { // -1 is NULL, with no bytes
                PgWire.skip(body, length);
            }
        }
        int formats = PgWire.readUnsignedShort(body);
        List<Short> resultFormats = new ArrayList<>(formats);
        for (int i = 0; i < formats; i++) {
            resultFormats.add(PgWire.readShort(body));
        }
        PgWire.expectEnd(body, Bind.TYPE);
        return new BoundPortal(portal, statement, parameters, resultFormats);
    }
}

package io.memogate.proxy.pg.message.frontend;

import io.memogate.proxy.pg.message.MalformedMessageException;
import io.memogate.proxy.pg.message.PgWire;
import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;

/**
 * Parse ('P'): names a prepared statement ("" is the unnamed one) and gives its SQL. The proxy records
 * name -> SQL so that the later Bind, where PostgreSQL plans, can be admitted with the right text.
 */
public record Parse(String statementName, String sql, List<Integer> parameterTypes) implements FrontendMessage {

    public static final byte TYPE = 'P';

    public Parse {
        parameterTypes = List.copyOf(parameterTypes);
    }

    public static Parse decode(ByteBuf frame) {
        ByteBuf body = PgWire.body(frame, TYPE);
        String name = PgWire.readCString(body);
        String sql = PgWire.readCString(body);
        int count = parameterCount(body);
        List<Integer> types = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            types.add(body.readInt());
        }
        return new Parse(name, sql, types);
    }

    /**
     * Checks the frame as {@link #decode} would, without making the Strings: for a proxy that forwards the Parse
     * unread.
     *
     * @throws MalformedMessageException as decode
     */
    public static void check(ByteBuf frame) {
        ByteBuf body = PgWire.body(frame, TYPE);
        PgWire.skipCString(body);
        PgWire.skipCString(body);
        parameterCount(body);
    }

    /** The number of parameter types, which must be exactly what the rest of the body holds. */
    private static int parameterCount(ByteBuf body) {
        int count = PgWire.readUnsignedShort(body);
        if (body.readableBytes() != count * 4) {
            throw new MalformedMessageException("Parse declares " + count + " parameter types but carries "
                    + body.readableBytes() + " bytes");
        }
        return count;
    }

    @Override
    public void encode(ByteBuf out) {
        int lengthIndex = PgWire.beginMessage(out, TYPE);
        PgWire.writeCString(out, statementName);
        PgWire.writeCString(out, sql);
        out.writeShort(parameterTypes.size());
        parameterTypes.forEach(out::writeInt);
        PgWire.endMessage(out, lengthIndex);
    }
}

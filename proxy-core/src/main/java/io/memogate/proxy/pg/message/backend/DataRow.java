package io.memogate.proxy.pg.message.backend;

import io.memogate.proxy.pg.message.PgWire;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * DataRow ('D') in text format: one row of the admin console's result sets. A server's rows are relayed
 * as they came and never become objects; this type exists for the rows the proxy writes itself.
 *
 * @param values one per column; null is SQL NULL (length -1 on the wire)
 */
public record DataRow(List<String> values) implements BackendMessage {

    public static final byte TYPE = 'D';

    public DataRow {
        values = Collections.unmodifiableList(new ArrayList<>(values)); // List.copyOf refuses nulls
    }

    public static DataRow decode(ByteBuf frame) {
        ByteBuf body = PgWire.body(frame, TYPE);
        int count = PgWire.readUnsignedShort(body);
        List<String> values = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int length = PgWire.readInt(body);
            values.add(length < 0 ? null : PgWire.readUtf8(body, length));
        }
        return new DataRow(values);
    }

    @Override
    public void encode(ByteBuf out) {
        int lengthIndex = PgWire.beginMessage(out, TYPE);
        out.writeShort(values.size());
        for (String value : values) {
            if (value == null) {
                out.writeInt(-1);
            } else {
                int valueLengthIndex = out.writerIndex();
                out.writeInt(0);
                int written = ByteBufUtil.writeUtf8(out, value);
                out.setInt(valueLengthIndex, written);
            }
        }
        PgWire.endMessage(out, lengthIndex);
    }
}

package io.memogate.proxy.pg.message.backend;

import io.memogate.proxy.pg.message.PgWire;
import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;

/**
 * RowDescription ('T'): the columns of the rows that follow. From a server it is the first response of a
 * query that returns rows, so compilation is over; those are forwarded untouched and never decoded. The
 * proxy builds its own for the admin console's result sets, whose columns are all text.
 */
public record RowDescription(List<Field> fields) implements BackendMessage {

    public static final byte TYPE = 'T';

    /** pg_type.oid of {@code text}; with format 0 every client reads the value as a string. */
    public static final int TEXT_OID = 25;

    /**
     * One column (https://www.postgresql.org/docs/current/protocol-message-formats.html#PROTOCOL-MESSAGE-FORMATS-ROWDESCRIPTION).
     *
     * @param tableOid 0 when the column is not a table's
     * @param columnNumber 0 when the column is not a table's
     * @param typeSize pg_type.typlen, -1 for variable length
     * @param typeModifier pg_attribute.atttypmod, -1 when none
     * @param format 0 text, 1 binary
     */
    public record Field(String name, int tableOid, short columnNumber, int typeOid, short typeSize, int typeModifier,
                        short format) {

        /** A computed text column, as {@code select 'x' as name} describes it. */
        public static Field text(String name) {
            return text(name, (short) 0);
        }

        /**
         * A computed text column sent in {@code format}. Text's binary form is its text, so the values are
         * the same bytes in either format.
         */
        public static Field text(String name, short format) {
            return new Field(name, 0, (short) 0, TEXT_OID, (short) -1, -1, format);
        }
    }

    public RowDescription {
        fields = List.copyOf(fields);
    }

    /** Text columns with these names. */
    public static RowDescription ofText(List<String> names) {
        return new RowDescription(names.stream().map(Field::text).toList());
    }

    /** Text columns with these names, each sent in the format of the same position. */
    public static RowDescription ofText(List<String> names, List<Short> formats) {
        if (names.size() != formats.size()) {
            throw new IllegalArgumentException(formats.size() + " formats for " + names.size() + " columns");
        }
        List<Field> fields = new ArrayList<>(names.size());
        for (int i = 0; i < names.size(); i++) {
            fields.add(Field.text(names.get(i), formats.get(i)));
        }
        return new RowDescription(fields);
    }

    public static RowDescription decode(ByteBuf frame) {
        ByteBuf body = PgWire.body(frame, TYPE);
        int count = PgWire.readUnsignedShort(body);
        List<Field> fields = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            fields.add(new Field(PgWire.readCString(body), PgWire.readInt(body), PgWire.readShort(body),
                    PgWire.readInt(body), PgWire.readShort(body), PgWire.readInt(body), PgWire.readShort(body)));
        }
        return new RowDescription(fields);
    }

    @Override
    public void encode(ByteBuf out) {
        int lengthIndex = PgWire.beginMessage(out, TYPE);
        out.writeShort(fields.size());
        for (Field field : fields) {
            PgWire.writeCString(out, field.name());
            out.writeInt(field.tableOid());
            out.writeShort(field.columnNumber());
            out.writeInt(field.typeOid());
            out.writeShort(field.typeSize());
            out.writeInt(field.typeModifier());
            out.writeShort(field.format());
        }
        PgWire.endMessage(out, lengthIndex);
    }
}

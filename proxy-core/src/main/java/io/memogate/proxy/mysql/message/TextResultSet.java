package io.memogate.proxy.mysql.message;

import io.memogate.proxy.admin.ResultTable;
import io.memogate.proxy.mysql.codec.MySqlPackets;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A result set of the proxy's own in the text protocol (protocol "Text Resultset"), every column a VAR_STRING
 * in utf8mb4, as MariaDB answers SHOW statements:
 * <pre>
 * column count                 length-encoded integer
 * one ColumnDefinition41 each  "def", schema, table, org_table, name, org_name, then the fixed 12 bytes
 * EOF                          only without CLIENT_DEPRECATE_EOF
 * one row each                 each value a length-encoded string, or 0xFB for NULL
 * EOF, or OK with header 0xFE  the latter with CLIENT_DEPRECATE_EOF
 * </pre>
 * Also the plain OK of a command without rows, which may carry a message (its "info").
 */
public final class TextResultSet {

    /** utf8mb4_general_ci: every driver decodes it as UTF-8. */
    private static final int UTF8MB4 = 45;
    private static final int TYPE_VAR_STRING = 0xFD;
    /** The display width MariaDB gives a long text column; drivers only size buffers by it. */
    private static final int COLUMN_LENGTH = 4 * 1024;
    private static final int EOF_HEADER = 0xFE;
    /** SERVER_STATUS_AUTOCOMMIT: the console has no transactions. */
    public static final int STATUS_AUTOCOMMIT = 0x0002;

    private TextResultSet() {
    }

    /**
     * The capabilities of a session that shape a result set.
     *
     * @param deprecateEof CLIENT_DEPRECATE_EOF: no EOF after the columns, and an OK with header 0xFE at the end
     * @param extendedMetadata MariaDB's MARIADB_CLIENT_EXTENDED_METADATA: a type-info field in each column
     */
    public record Shape(boolean deprecateEof, boolean extendedMetadata) {
    }

    /**
     * Writes {@code table} as one answer, its first packet with {@code sequenceId}.
     *
     * @param shape what the client set at login that changes the answer's packets
     */
    public static void encode(ResultTable table, Shape shape, int sequenceId, ByteBuf out) {
        int sequence = sequenceId;
        ByteBuf payload = out.alloc().buffer();
        try {
            writeLengthEncoded(payload, table.columns().size());
            sequence = packet(out, payload, sequence);
            for (String column : table.columns()) {
                columnDefinition(payload, column, shape.extendedMetadata());
                sequence = packet(out, payload, sequence);
            }
            if (!shape.deprecateEof()) {
                eof(payload);
                sequence = packet(out, payload, sequence);
            }
            for (List<String> row : table.rows()) {
                for (String value : row) {
                    if (value == null) {
                        payload.writeByte(0xFB);
                    } else {
                        writeLengthEncodedString(payload, value);
                    }
                }
                sequence = packet(out, payload, sequence);
            }
            if (shape.deprecateEof()) {
                payload.writeByte(EOF_HEADER).writeByte(0).writeByte(0).writeShortLE(STATUS_AUTOCOMMIT).writeShortLE(0);
            } else {
                eof(payload);
            }
            packet(out, payload, sequence);
        } finally {
            payload.release();
        }
    }

    /** An OK without rows affected, with {@code info} as its message when not empty. */
    public static void ok(String info, int sequenceId, ByteBuf out) {
        ByteBuf payload = out.alloc().buffer();
        try {
            payload.writeByte(OkPacket.HEADER).writeByte(0).writeByte(0).writeShortLE(STATUS_AUTOCOMMIT).writeShortLE(0);
            if (!info.isEmpty()) {
                payload.writeCharSequence(info, StandardCharsets.UTF_8); // string<EOF> without CLIENT_SESSION_TRACK
            }
            packet(out, payload, sequenceId);
        } finally {
            payload.release();
        }
    }

    private static void columnDefinition(ByteBuf payload, String name, boolean extendedMetadata) {
        writeLengthEncodedString(payload, "def");
        writeLengthEncodedString(payload, ""); // schema
        writeLengthEncodedString(payload, ""); // table
        writeLengthEncodedString(payload, ""); // org_table
        writeLengthEncodedString(payload, name);
        writeLengthEncodedString(payload, name); // org_name
        if (extendedMetadata) {
            writeLengthEncoded(payload, 0); // no extended type information
        }
        payload.writeByte(0x0C).writeShortLE(UTF8MB4).writeIntLE(COLUMN_LENGTH).writeByte(TYPE_VAR_STRING)
                .writeShortLE(0).writeByte(0).writeShortLE(0); // flags, decimals, filler
    }

    private static void eof(ByteBuf payload) {
        payload.writeByte(EOF_HEADER).writeShortLE(0).writeShortLE(STATUS_AUTOCOMMIT);
    }

    /** Moves {@code payload} into {@code out} as packets (split at 16 MiB - 1 as the protocol asks); the next id. */
    private static int packet(ByteBuf out, ByteBuf payload, int sequenceId) {
        int sequence = sequenceId;
        while (true) {
            int length = Math.min(payload.readableBytes(), MySqlPackets.MAX_PAYLOAD);
            MySqlPackets.writeHeader(out, length, sequence & 0xFF);
            out.writeBytes(payload, length);
            sequence++;
            if (length < MySqlPackets.MAX_PAYLOAD) {
                payload.clear();
                return sequence;
            }
        }
    }

    private static void writeLengthEncodedString(ByteBuf out, String value) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        writeLengthEncoded(out, bytes.length);
        out.writeBytes(bytes);
    }

    /** Protocol "Length-Encoded Integer", the writing side of {@link MySqlPackets#readLengthEncoded}. */
    static void writeLengthEncoded(ByteBuf out, long value) {
        if (value < 0xFB) {
            out.writeByte((int) value);
        } else if (value < 1 << 16) {
            out.writeByte(0xFC).writeShortLE((int) value);
        } else if (value < 1 << 24) {
            out.writeByte(0xFD).writeMediumLE((int) value);
        } else {
            out.writeByte(0xFE).writeLongLE(value);
        }
    }
}

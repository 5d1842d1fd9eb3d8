package io.memogate.proxy.tds.message;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * What the proxy reads of a client's LOGIN7 ([MS-TDS] 2.2.6.4), which it relays unchanged (it never decides a
 * login): the packet size the client asks for, and who logs in to which database with which program, for the
 * console. The fixed part is 36 bytes (length, TDS version, packet size, ...), then pairs of an offset from the
 * start of the message and a length in characters (2 bytes each, little-endian) for its UTF-16LE strings.
 *
 * @param tdsVersion as the client sends it (little-endian on the wire: 0x74000004 is TDS 7.4)
 * @param packetSize the packet size asked for; 0 asks for the server's
 */
public record Login7(long tdsVersion, long packetSize, String user, String database, String applicationName) {

    private static final int FIXED_BYTES = 36;
    private static final int USER_NAME = 40;
    private static final int APP_NAME = 48;
    private static final int DATABASE = 68;
    private static final int OFFSETS_END = 94;

    /** TDS 7.0, the first version of this numbering (TDS 8.0 is 0x08000000). */
    private static final long TDS_7_0 = 0x70000000L;
    /** TDS 7.2, the first version whose SQLBatch and RPC messages begin with ALL_HEADERS. */
    private static final long TDS_7_2 = 0x72090002L;

    /**
     * Its SQLBatch and RPC messages begin with ALL_HEADERS: TDS 7.2 and later, TDS 8.0 included; not TDS 7.0 and
     * 7.1 (jTDS speaks 7.1).
     */
    public boolean allHeaders() {
        return tdsVersion < TDS_7_0 || tdsVersion >= TDS_7_2;
    }

    /** Reads {@code data} (the message's data, without packet headers), leaving it as it was. */
    public static Login7 decode(ByteBuf data) {
        int start = data.readerIndex();
        int length = data.readableBytes();
        if (length < OFFSETS_END) {
            throw new MalformedPacketException("a LOGIN7 message of " + length + " bytes, shorter than its fixed part");
        }
        long declared = data.getUnsignedIntLE(start);
        if (declared > length || declared < FIXED_BYTES) {
            throw new MalformedPacketException("a LOGIN7 message saying it is " + declared + " bytes long in "
                    + length + " bytes");
        }
        return new Login7(data.getUnsignedIntLE(start + 4), data.getUnsignedIntLE(start + 8),
                string(data, USER_NAME, "UserName"), string(data, DATABASE, "Database"),
                string(data, APP_NAME, "AppName"));
    }

    private static String string(ByteBuf data, int field, String name) {
        int start = data.readerIndex();
        int offset = data.getUnsignedShortLE(start + field);
        int chars = data.getUnsignedShortLE(start + field + 2);
        if (chars == 0) {
            return "";
        }
        if (offset + 2L * chars > data.readableBytes()) {
            throw new MalformedPacketException("LOGIN7's " + name + " points outside the message");
        }
        return data.toString(start + offset, 2 * chars, StandardCharsets.UTF_16LE);
    }
}

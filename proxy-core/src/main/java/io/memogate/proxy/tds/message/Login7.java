package io.memogate.proxy.tds.message;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * What the proxy reads of a client's LOGIN7 ([MS-TDS] 2.2.6.4), which it relays unchanged (it never decides a
 * login): the packet size the client asks for, and who logs in to which database with which program, for the
 * console. The fixed part is 36 bytes (length, TDS version, packet size, ...), then pairs of an offset from the
 * start of the message and a length in characters (2 bytes each, little-endian) for its UTF-16LE strings. Routed
 * to another server, the proxy logs in there with the same LOGIN7, its ServerName changed ({@link #routedTo}).
 *
 * @param tdsVersion as the client sends it (little-endian on the wire: 0x74000004 is TDS 7.4)
 * @param packetSize the packet size asked for; 0 asks for the server's
 */
public record Login7(long tdsVersion, long packetSize, String user, String database, String applicationName) {

    private static final int FIXED_BYTES = 36;
    private static final int USER_NAME = 40;
    private static final int APP_NAME = 48;
    private static final int SERVER_NAME = 52;
    private static final int EXTENSION = 56;
    private static final int DATABASE = 68;
    /** OptionFlags3, whose fExtension bit says that ibExtension points to the offset of the FeatureExt block. */
    private static final int OPTION_FLAGS_3 = 27;
    private static final int F_EXTENSION = 0x10;
    /** OptionFlags2, whose fIntSecurity bit asks for integrated (SSPI) authentication. */
    private static final int OPTION_FLAGS_2 = 25;
    private static final int F_INT_SECURITY = 0x80;
    /**
     * The offset fields of the variable part: HostName, UserName, Password, AppName, ServerName, Extension,
     * CltIntName, Language, Database, SSPI, AtchDBFile; ChangePassword from TDS 7.2 on.
     */
    private static final int[] OFFSETS = {36, USER_NAME, 44, APP_NAME, SERVER_NAME, EXTENSION, 60, 64, DATABASE, 78, 82};
    private static final int CHANGE_PASSWORD = 86;
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

    /** Whether the LOGIN7 {@code data} logs in with integrated (SSPI: Kerberos, NTLM) authentication. */
    public static boolean integratedSecurity(ByteBuf data) {
        return data.readableBytes() > OPTION_FLAGS_2
                && (data.getUnsignedByte(data.readerIndex() + OPTION_FLAGS_2) & F_INT_SECURITY) != 0;
    }

    /**
     * A copy of the LOGIN7 {@code data} for the server a Routing ENVCHANGE named ([MS-TDS] 2.2.7.9), as a client
     * logs in there: ServerName {@code serverName} (mssql-jdbc sends the routed name there), and Database
     * {@code database} when the routing named one (enhanced routing). Everything else, the password included, is left
     * as it came.
     */
    public static ByteBuf routedTo(ByteBuf data, String serverName, Optional<String> database, ByteBufAllocator alloc) {
        ByteBuf named = withString(data, SERVER_NAME, serverName, alloc);
        if (database.isEmpty()) {
            return named;
        }
        try {
            return withString(named, DATABASE, database.get(), alloc);
        } finally {
            named.release();
        }
    }

    /**
     * A copy of {@code data} with the string of offset field {@code field} set to {@code value}: the new string takes
     * the old one's place, and every offset past it (the strings after it, the FeatureExt block's offset) and the
     * length move by the difference.
     */
    private static ByteBuf withString(ByteBuf data, int field, String value, ByteBufAllocator alloc) {
        Login7 login = decode(data);
        int start = data.readerIndex();
        int length = data.readableBytes();
        int offset = data.getUnsignedShortLE(start + field);
        int oldBytes = 2 * data.getUnsignedShortLE(start + field + 2);
        if (offset + oldBytes > length) {
            throw new MalformedPacketException("LOGIN7's field at " + field + " points outside its variable part");
        }
        byte[] bytes = value.getBytes(StandardCharsets.UTF_16LE);
        int shift = bytes.length - oldBytes;
        int after = offset + oldBytes;
        ByteBuf copy = alloc.buffer(length + shift);
        copy.writeBytes(data, start, offset).writeBytes(bytes).writeBytes(data, start + after, length - after);
        copy.setIntLE(0, (int) (data.getUnsignedIntLE(start) + shift));
        copy.setShortLE(field + 2, value.length());
        for (int other : OFFSETS) {
            if (other != field) {
                moveOffset(copy, other, after, shift);
            }
        }
        if (login.allHeaders()) {
            moveOffset(copy, CHANGE_PASSWORD, after, shift);
        }
        if ((copy.getUnsignedByte(OPTION_FLAGS_3) & F_EXTENSION) != 0) {
            int pointer = copy.getUnsignedShortLE(EXTENSION);
            if (pointer + 4 <= copy.readableBytes() && copy.getUnsignedIntLE(pointer) >= after) {
                copy.setIntLE(pointer, (int) (copy.getUnsignedIntLE(pointer) + shift));
            }
        }
        return copy;
    }

    /** An offset at or past {@code after} (where the old ServerName ended) moves by {@code shift}. */
    private static void moveOffset(ByteBuf copy, int field, int after, int shift) {
        int offset = copy.getUnsignedShortLE(field);
        if (offset < after) {
            return;
        }
        if (offset + shift > 0xFFFF) {
            copy.release();
            throw new MalformedPacketException("LOGIN7 too long for its 2-byte offsets with the routed server's name");
        }
        copy.setShortLE(field, offset + shift);
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

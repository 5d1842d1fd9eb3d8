package io.memogate.proxy.tds.message;

import io.netty.buffer.ByteBuf;

/**
 * Steps over one RPC parameter of any type a client sends ([MS-TDS] 2.2.5.4 TYPE_INFO and 2.2.5.5 its value),
 * without reading it: what finds the next request of a batch of RPCs. Table-valued parameters and parameters
 * encrypted by Always Encrypted are not stepped over (the rest of the message is then not read).
 */
final class RpcParameter {

    private static final int ENCRYPTED = 0x08;
    private static final long PLP_NULL = -1L;

    private RpcParameter() {
    }

    /** Where the parameter at {@code at} (its name) ends; -1 when its type is not stepped over here. */
    static int skip(ByteBuf data, int at) {
        at += 1 + 2 * data.getUnsignedByte(at);
        int status = data.getUnsignedByte(at);
        at += 1;
        if ((status & ENCRYPTED) != 0) {
            return -1;
        }
        int type = data.getUnsignedByte(at);
        at += 1;
        return switch (type) {
            case 0x1F -> at;                                               // NULLTYPE
            case 0x30, 0x32 -> at + 1;                                     // INT1, BIT
            case 0x34 -> at + 2;                                           // INT2
            case 0x38, 0x3A, 0x3B, 0x7A -> at + 4;                         // INT4, DATETIM4, FLT4, MONEY4
            case 0x3C, 0x3D, 0x3E, 0x7F -> at + 8;                         // MONEY, DATETIME, FLT8, INT8
            // GUID, INTN, BITN, FLTN, MONEYN, DATETIMN; old CHAR, VARCHAR, BINARY, VARBINARY: a length byte
            case 0x24, 0x26, 0x68, 0x6D, 0x6E, 0x6F, 0x2F, 0x27, 0x2D, 0x25 -> byteLength(data, at + 1);
            case 0x6A, 0x6C -> byteLength(data, at + 3);                   // DECIMALN, NUMERICN: precision, scale
            case 0x28 -> byteLength(data, at);                             // DATEN
            case 0x29, 0x2A, 0x2B -> byteLength(data, at + 1);            // TIMEN, DATETIME2N, DATETIMEOFFSETN: scale
            case 0xA5, 0xAD -> shortLength(data, at, 0);                   // BIGVARBIN, BIGBINARY
            case 0xA7, 0xAF, 0xE7, 0xEF -> shortLength(data, at, 5);      // BIGVARCHR, BIGCHAR, NVARCHAR, NCHAR
            case 0x22 -> longLength(data, at + 4);                         // IMAGE
            case 0x23, 0x63 -> longLength(data, at + 4 + 5);               // TEXT, NTEXT: collation
            case 0x62 -> longLength(data, at + 4);                         // SQL_VARIANT
            case 0xF1 -> xml(data, at);
            default -> -1;                                                 // TVP, UDT, and what a client does not send
        };
    }

    private static int byteLength(ByteBuf data, int at) {
        return at + 1 + data.getUnsignedByte(at);
    }

    /** A 2-byte max length and {@code extra} bytes (a collation); PLP when it is 0xFFFF, else a 2-byte length. */
    private static int shortLength(ByteBuf data, int at, int extra) {
        int maxLength = data.getUnsignedShortLE(at);
        at += 2 + extra;
        if (maxLength == 0xFFFF) {
            return plp(data, at);
        }
        int length = data.getUnsignedShortLE(at);
        return length == 0xFFFF ? at + 2 : checked(data, at + 2L + length);
    }

    private static int longLength(ByteBuf data, int at) {
        long length = data.getUnsignedIntLE(at);
        return length == 0xFFFFFFFFL ? at + 4 : checked(data, at + 4 + length);
    }

    private static int xml(ByteBuf data, int at) {
        if (data.getUnsignedByte(at) != 0) {                             // a schema: database, owner, collection
            at += 1;
            at += 1 + 2 * data.getUnsignedByte(at);
            at += 1 + 2 * data.getUnsignedByte(at);
            at += 2 + 2 * data.getUnsignedShortLE(at);
        } else {
            at += 1;
        }
        return plp(data, at);
    }

    /** A PLP value: an 8-byte total (all ones: NULL), then chunks, each a 4-byte length, until a chunk of 0. */
    static int plp(ByteBuf data, int at) {
        long total = data.getLongLE(at);
        at += 8;
        if (total == PLP_NULL) {
            return at;
        }
        for (long chunk = data.getUnsignedIntLE(at); chunk != 0; chunk = data.getUnsignedIntLE(at)) {
            at = checked(data, at + 4 + chunk);
        }
        return at + 4;
    }

    private static int checked(ByteBuf data, long end) {
        if (end > data.writerIndex()) {
            throw new MalformedPacketException("an RPC parameter longer than the request");
        }
        return (int) end;
    }
}

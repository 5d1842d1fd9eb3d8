package io.memogate.proxy.tds.message;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * The text of a SQLBatch message ([MS-TDS] 2.2.6.7): ALL_HEADERS (from TDS 7.2 on: a 4-byte little-endian total
 * length, itself included, then the headers: transaction descriptor, trace activity), then the batch as UTF-16LE.
 */
public final class SqlBatch {

    private SqlBatch() {
    }

    /** The batch's text in {@code data} (the message's data, without packet headers), left as it was. */
    public static String text(ByteBuf data) {
        return text(data, true);
    }

    /** The same, for a client that sends ALL_HEADERS ({@code allHeaders}) or not (TDS 7.1 and before). */
    public static String text(ByteBuf data, boolean allHeaders) {
        int length = data.readableBytes();
        if (!allHeaders) {
            return data.toString(data.readerIndex(), length & ~1, StandardCharsets.UTF_16LE);
        }
        if (length < 4) {
            throw new MalformedPacketException("a SQLBatch message of " + length + " bytes, without its ALL_HEADERS");
        }
        long headers = data.getUnsignedIntLE(data.readerIndex());
        if (headers < 4 || headers > length) {
            throw new MalformedPacketException("a SQLBatch whose ALL_HEADERS says " + headers + " bytes, in "
                    + length + " bytes");
        }
        int textBytes = (length - (int) headers) & ~1;
        return data.toString(data.readerIndex() + (int) headers, textBytes, StandardCharsets.UTF_16LE);
    }
}

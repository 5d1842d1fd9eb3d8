package io.memogate.proxy.pg.message;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.nio.charset.StandardCharsets;

/**
 * Primitive encodings of the PostgreSQL frontend/backend protocol 3.x
 * (https://www.postgresql.org/docs/current/protocol-message-types.html): NUL-terminated UTF-8 strings
 * and the type-byte + int32-length frame header shared by every message after startup.
 */
public final class PgWire {

    /** Bytes of the int32 length field; the length counts itself but not the type byte. */
    public static final int LENGTH_FIELD_BYTES = 4;

    private PgWire() {}

    /** Reads a NUL-terminated UTF-8 string and moves the reader index past the NUL. */
    public static String readCString(ByteBuf buf) {
        int end = buf.indexOf(buf.readerIndex(), buf.writerIndex(), (byte) 0);
        if (end < 0) {
            throw new MalformedMessageException("string is not NUL-terminated");
        }
        String value = buf.toString(buf.readerIndex(), end - buf.readerIndex(), StandardCharsets.UTF_8);
        buf.readerIndex(end + 1);
        return value;
    }

    /** Skips a NUL-terminated string without decoding it. */
    public static void skipCString(ByteBuf buf) {
        buf.readerIndex(skipCString(buf, buf.readerIndex(), buf.writerIndex()));
    }

    /**
     * Skips the NUL-terminated string at {@code index}, which must end before {@code end}, moving no index: for
     * checks on the relay path, which make no slice. Returns the index after the NUL.
     */
    public static int skipCString(ByteBuf buf, int index, int end) {
        int nul = index < end ? buf.indexOf(index, end, (byte) 0) : -1;
        if (nul < 0) {
            throw new MalformedMessageException("string is not NUL-terminated");
        }
        return nul + 1;
    }

    /** Reads a byte, or fails as a malformed message when the body ends first. */
    public static byte readByte(ByteBuf buf) {
        need(buf, Byte.BYTES);
        return buf.readByte();
    }

    /** Reads an int16 as unsigned (a count), or fails as a malformed message when the body ends first. */
    public static int readUnsignedShort(ByteBuf buf) {
        need(buf, Short.BYTES);
        return buf.readUnsignedShort();
    }

    /** Reads an int16 (a format code), or fails as a malformed message when the body ends first. */
    public static short readShort(ByteBuf buf) {
        need(buf, Short.BYTES);
        return buf.readShort();
    }

    /** Reads an int32, or fails as a malformed message when the body ends first. */
    public static int readInt(ByteBuf buf) {
        need(buf, Integer.BYTES);
        return buf.readInt();
    }

    /** Reads {@code bytes} bytes of UTF-8, or fails as a malformed message when the body ends first. */
    public static String readUtf8(ByteBuf buf, int bytes) {
        need(buf, bytes);
        return buf.readCharSequence(bytes, StandardCharsets.UTF_8).toString();
    }

    /** Skips {@code bytes} bytes, or fails as a malformed message when the body ends first. */
    public static void skip(ByteBuf buf, int bytes) {
        need(buf, bytes);
        buf.skipBytes(bytes);
    }

    /** Fails as a malformed message unless the body was read to its end. */
    public static void expectEnd(ByteBuf buf, byte type) {
        if (buf.isReadable()) {
            throw new MalformedMessageException("message '" + printableType(type) + "' has " + buf.readableBytes()
                    + " bytes after its last field");
        }
    }

    private static void need(ByteBuf buf, int bytes) {
        if (bytes < 0 || buf.readableBytes() < bytes) {
            throw new MalformedMessageException("message ends " + (bytes - buf.readableBytes())
                    + " bytes before its last field");
        }
    }

    public static void writeCString(ByteBuf buf, String value) {
        ByteBufUtil.writeUtf8(buf, value);
        buf.writeByte(0);
    }

    /** Writes a type byte and a length placeholder; returns the index {@link #endMessage} patches. */
    public static int beginMessage(ByteBuf buf, byte type) {
        buf.writeByte(type);
        int lengthIndex = buf.writerIndex();
        buf.writeInt(0);
        return lengthIndex;
    }

    public static void endMessage(ByteBuf buf, int lengthIndex) {
        buf.setInt(lengthIndex, buf.writerIndex() - lengthIndex);
    }

    /**
     * Positions a reader on the body of a typed frame (type byte + length + body), checking the type.
     * Returns a slice that shares the frame's memory; the caller keeps ownership of the frame. Of a
     * message relayed in parts, the frame is its head and the slice holds the part of the body it has.
     */
    public static ByteBuf body(ByteBuf frame, byte expectedType) {
        int bodyStart = bodyStart(frame);
        return frame.slice(bodyStart, bodyEnd(frame, expectedType) - bodyStart);
    }

    /** Where the body of a typed frame starts: after its type byte and length word. */
    public static int bodyStart(ByteBuf frame) {
        return frame.readerIndex() + 1 + LENGTH_FIELD_BYTES;
    }

    /**
     * Where the body of a typed frame ends, checking the type as {@link #body} does, but without a slice: the end
     * of the message, or of what the frame holds of it.
     */
    public static int bodyEnd(ByteBuf frame, byte expectedType) {
        int start = frame.readerIndex();
        if (frame.getByte(start) != expectedType) {
            throw new MalformedMessageException("expected message '" + printableType(expectedType) + "', got '"
                    + printableType(frame.getByte(start)) + "'");
        }
        return Math.min(start + 1 + frame.getInt(start + 1), frame.writerIndex());
    }

    /** A message type byte as a person reads it: the character, or \xNN for one that is not printable. */
    public static String printableType(byte type) {
        return type >= 0x20 && type < 0x7f ? String.valueOf((char) type) : String.format("\\x%02x", type);
    }
}

package io.memogate.proxy.tds.it;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * TDS messages over blocking streams, for the test TDS server and the raw test client: packets of an 8-byte
 * header ([MS-TDS] 2.2.3), joined up to the end-of-message bit, written cut to a packet size.
 */
final class TdsWire {

    static final int PRELOGIN = 18;
    static final int LOGIN7 = 16;
    static final int SQL_BATCH = 1;
    static final int RPC = 3;
    static final int ATTENTION = 6;
    /** A client's SSPI message: the next token of an integrated login (an NTLM AUTHENTICATE). */
    static final int SSPI = 17;
    static final int REPLY = 4;

    /** One message: its type, the SPID of its first packet and its data without headers; null type at the end. */
    record Message(int type, int spid, byte[] data) {

        ByteBuffer littleEndian() {
            return ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
        }
    }

    private TdsWire() {
    }

    /** The next message, or null when the peer closed before one began. */
    static Message read(InputStream in) throws IOException {
        DataInputStream data = new DataInputStream(in);
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        int type = -1;
        int spid = 0;
        while (true) {
            int first = data.read();
            if (first < 0) {
                if (type < 0) {
                    return null;
                }
                throw new EOFException("the peer closed inside a message");
            }
            int status = data.readUnsignedByte();
            int length = data.readUnsignedShort();
            int packetSpid = data.readUnsignedShort();
            data.readUnsignedShort(); // packet number, window
            if (length < 8) {
                throw new IOException("a packet header announcing " + length + " bytes");
            }
            byte[] part = new byte[length - 8];
            data.readFully(part);
            body.write(part);
            if (type < 0) {
                type = first;
                spid = packetSpid;
            }
            if ((status & 1) != 0) {
                return new Message(type, spid, body.toByteArray());
            }
        }
    }

    static void write(OutputStream out, int type, byte[] data, int packetSize, int spid) throws IOException {
        int room = packetSize - 8;
        int at = 0;
        int number = 1;
        do {
            int chunk = Math.min(room, data.length - at);
            boolean last = at + chunk == data.length;
            out.write(new byte[] {(byte) type, (byte) (last ? 1 : 0), (byte) ((chunk + 8) >> 8), (byte) (chunk + 8),
                    (byte) (spid >> 8), (byte) spid, (byte) number++, 0});
            out.write(data, at, chunk);
            at += chunk;
        } while (at < data.length);
        out.flush();
    }

    static byte[] utf16(String text) {
        return text.getBytes(StandardCharsets.UTF_16LE);
    }

    /** A growing little-endian buffer for tokens. */
    static final class Tokens {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        Tokens u8(int value) {
            bytes.write(value);
            return this;
        }

        Tokens u16(int value) {
            bytes.write(value);
            bytes.write(value >> 8);
            return this;
        }

        Tokens u32(long value) {
            return u16((int) value).u16((int) (value >> 16));
        }

        Tokens u64(long value) {
            return u32(value).u32(value >>> 32);
        }

        Tokens raw(byte[] raw) {
            bytes.writeBytes(raw);
            return this;
        }

        /** B_VARCHAR: a count of UTF-16 units in one byte, then the text. */
        Tokens bVarchar(String text) {
            return u8(text.length()).raw(utf16(text));
        }

        /** US_VARCHAR: the count in two bytes. */
        Tokens usVarchar(String text) {
            return u16(text.length()).raw(utf16(text));
        }

        int size() {
            return bytes.size();
        }

        byte[] bytes() {
            return bytes.toByteArray();
        }
    }
}

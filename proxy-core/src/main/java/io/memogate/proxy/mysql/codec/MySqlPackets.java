package io.memogate.proxy.mysql.codec;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.buffer.Unpooled;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * The MySQL packet (client/server protocol, "MySQL Packets"): a 3-byte little-endian payload length, a
 * 1-byte sequence id, then the payload. A payload of 16 MiB - 1 bytes or more is sent as several packets,
 * each full one ({@value #MAX_PAYLOAD} bytes) followed by the next, the last shorter (possibly empty). Every
 * frame the proxy handles keeps its headers: what it relays goes out byte for byte as it came.
 */
public final class MySqlPackets {

    /** The largest payload of one packet: a payload this long continues in the next packet. */
    public static final int MAX_PAYLOAD = 0xFFFFFF;
    public static final int HEADER_BYTES = 4;

    private MySqlPackets() {
    }

    /** Splits the byte stream into packets, header included, each at most {@value #MAX_PAYLOAD} + 4 bytes. */
    public static LengthFieldBasedFrameDecoder framer() {
        return framer(MAX_PAYLOAD);
    }

    /**
     * The same, failing with a {@link io.netty.handler.codec.TooLongFrameException} as soon as a header announces
     * a payload over {@code maxPayload}, before its bytes are held (a client's leg, whose limit may be lower).
     */
    public static LengthFieldBasedFrameDecoder framer(int maxPayload) {
        return new LengthFieldBasedFrameDecoder(ByteOrder.LITTLE_ENDIAN, Math.min(maxPayload, MAX_PAYLOAD) + HEADER_BYTES,
                0, 3, 1, 0, true);
    }

    /** The payload length the header of the packet at the reader index says. */
    public static int payloadLength(ByteBuf packet) {
        return packet.getUnsignedMediumLE(packet.readerIndex());
    }

    public static int sequenceId(ByteBuf packet) {
        return packet.getUnsignedByte(packet.readerIndex() + 3);
    }

    /** The first payload byte of a packet (a command, or OK 0x00 / ERR 0xFF / EOF 0xFE); -1 when it is empty. */
    public static int firstByte(ByteBuf packet) {
        return payloadLength(packet) == 0 ? -1 : packet.getUnsignedByte(packet.readerIndex() + HEADER_BYTES);
    }

    /**
     * The payload of a frame of one or more packets ({@link ClientPackets}) without their headers: a view, valid
     * while the frame is.
     */
    public static ByteBuf payload(ByteBuf frame) {
        int at = frame.readerIndex();
        int length = frame.getUnsignedMediumLE(at);
        if (length < MAX_PAYLOAD) {
            return frame.slice(at + HEADER_BYTES, length);
        }
        List<ByteBuf> parts = new ArrayList<>();
        while (true) {
            length = frame.getUnsignedMediumLE(at);
            parts.add(frame.slice(at + HEADER_BYTES, length));
            at += HEADER_BYTES + length;
            if (length < MAX_PAYLOAD) {
                return Unpooled.wrappedBuffer(parts.toArray(ByteBuf[]::new));
            }
        }
    }

    /**
     * Adds {@code delta} to the sequence id of every packet of {@code frame}, in place: during the login, where the
     * ids run on across packets, a leg that had an SSLRequest counts one packet more than a leg that had none.
     */
    public static void shiftSequenceIds(ByteBuf frame, int delta) {
        if (delta == 0) {
            return;
        }
        int at = frame.readerIndex();
        while (at + HEADER_BYTES <= frame.writerIndex()) {
            frame.setByte(at + 3, frame.getUnsignedByte(at + 3) + delta);
            at += HEADER_BYTES + frame.getUnsignedMediumLE(at);
        }
    }

    /** Writes a header for a payload of {@code length} bytes. */
    public static void writeHeader(ByteBuf out, int length, int sequenceId) {
        out.writeMediumLE(length).writeByte(sequenceId);
    }

    /**
     * Reads a length-encoded integer at the reader index, moving past it (protocol "Length-Encoded Integer"):
     * below 0xFB itself; 0xFC, 0xFD, 0xFE: a 2-, 3-, 8-byte integer follows.
     *
     * @throws IndexOutOfBoundsException when the buffer ends inside it
     * @throws IllegalArgumentException for 0xFB (NULL) and 0xFF, which start no integer
     */
    public static long readLengthEncoded(ByteBuf in) {
        int first = in.readUnsignedByte();
        return switch (first) {
            case 0xFC -> in.readUnsignedShortLE();
            case 0xFD -> in.readUnsignedMediumLE();
            case 0xFE -> in.readLongLE();
            case 0xFB, 0xFF -> throw new IllegalArgumentException("0x" + Integer.toHexString(first)
                    + " starts no length-encoded integer");
            default -> first;
        };
    }
}

package io.memogate.proxy.tds.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import java.nio.ByteOrder;

/**
 * The TDS packet ([MS-TDS] 2.2.3.1): an 8-byte header, then up to the negotiated packet size less the header of
 * the message's data. The header: type (1), status (1; bit 0x01 end of message), length of the whole packet,
 * header included (2, big-endian), the server's process id (2, big-endian), a packet number (1) and an unused
 * window byte (1). A message is the data of consecutive packets of one type up to the one marked end of message.
 * Every frame the proxy handles keeps its headers: what it relays goes out byte for byte as it came.
 */
public final class TdsPackets {

    public static final int HEADER_BYTES = 8;
    /** The length field is 16 bits; servers negotiate at most 32,767 bytes, but the field allows this much. */
    public static final int MAX_PACKET = 0xFFFF;
    /** The packet size a connection starts with, until LOGIN7 and the server's ENVCHANGE set another. */
    public static final int DEFAULT_PACKET_SIZE = 4096;
    /** The smallest packet size a client may ask for ([MS-TDS] 2.2.6.4, PacketSize). */
    public static final int MIN_PACKET_SIZE = 512;

    public static final int STATUS_END_OF_MESSAGE = 0x01;
    public static final int STATUS_IGNORE = 0x02;

    private TdsPackets() {
    }

    /** Splits a byte stream into packets, header included; a length below the header's own is corrupt. */
    public static LengthFieldBasedFrameDecoder framer() {
        return new LengthFieldBasedFrameDecoder(ByteOrder.BIG_ENDIAN, MAX_PACKET, 2, 2, -4, 0, true) {
            @Override
            protected long getUnadjustedFrameLength(ByteBuf buf, int offset, int length, ByteOrder order) {
                long packetLength = super.getUnadjustedFrameLength(buf, offset, length, order);
                if (packetLength < HEADER_BYTES) {
                    throw new CorruptedFrameException("a TDS packet header announcing " + packetLength
                            + " bytes, less than the header's own 8");
                }
                return packetLength;
            }
        };
    }

    /** The packet type of the packet (or message) at the reader index. */
    public static int type(ByteBuf packet) {
        return packet.getUnsignedByte(packet.readerIndex());
    }

    public static int status(ByteBuf packet) {
        return packet.getUnsignedByte(packet.readerIndex() + 1);
    }

    public static boolean endsMessage(ByteBuf packet) {
        return (status(packet) & STATUS_END_OF_MESSAGE) != 0;
    }

    /** The server process id the header names (the server's SPID on its packets; clients send 0). */
    public static int spid(ByteBuf packet) {
        return packet.getUnsignedShort(packet.readerIndex() + 4);
    }

    public static int length(ByteBuf packet) {
        return packet.getUnsignedShort(packet.readerIndex() + 2);
    }

    /**
     * The data of a message of whole packets (as {@link ClientMessages} joins them): each packet's bytes after its
     * header, joined without copying. The caller releases it; {@code message} is left as it was.
     */
    public static ByteBuf data(ByteBuf message, ByteBufAllocator alloc) {
        CompositeByteBuf data = alloc.compositeBuffer(Integer.MAX_VALUE);
        int at = message.readerIndex();
        int end = message.writerIndex();
        while (at < end) {
            int length = message.getUnsignedShort(at + 2);
            data.addComponent(true, message.retainedSlice(at + HEADER_BYTES, length - HEADER_BYTES));
            at += length;
        }
        return data;
    }

    /**
     * A message of {@code type} carrying {@code data} (consumed and released), cut into packets of at most
     * {@code packetSize} bytes, the last marked end of message, each with {@code spid}.
     */
    public static ByteBuf message(ByteBufAllocator alloc, int type, ByteBuf data, int packetSize, int spid) {
        int room = Math.max(MIN_PACKET_SIZE, Math.min(packetSize, MAX_PACKET)) - HEADER_BYTES;
        ByteBuf out = alloc.buffer(data.readableBytes() + HEADER_BYTES * (1 + data.readableBytes() / room));
        int number = 1;
        try {
            do {
                int chunk = Math.min(room, data.readableBytes());
                boolean last = chunk == data.readableBytes();
                out.writeByte(type)
                        .writeByte(last ? STATUS_END_OF_MESSAGE : 0)
                        .writeShort(chunk + HEADER_BYTES)
                        .writeShort(spid)
                        .writeByte(number++ & 0xFF)
                        .writeByte(0);
                out.writeBytes(data, chunk);
            } while (data.isReadable());
        } finally {
            data.release();
        }
        return out;
    }
}

package io.memogate.proxy.tds.message;

import io.memogate.proxy.tds.codec.TdsPackets;
import io.netty.buffer.ByteBuf;

/**
 * The PRELOGIN message ([MS-TDS] 2.2.6.5) and its answer, each one packet: a table of options (token 1 byte,
 * offset and length 2 bytes big-endian each, from the start of the data), ended by 0xFF, then the options' data.
 * The proxy rewrites two options in place on their way through: ENCRYPTION, to what the proxy negotiates on each
 * leg (it terminates TLS on both, and reads every statement in between), and MARS, off on both legs: the session
 * follows one request at a time, so MARS is negotiated off rather than demultiplexed (asked off of the server, and
 * answered off to the client whatever the server said). Every other option passes as it came.
 */
public final class Prelogin {

    public static final int ENCRYPTION = 0x01;
    public static final int MARS = 0x04;
    private static final int TERMINATOR = 0xFF;

    /** The ENCRYPTION values ([MS-TDS] 2.2.6.5, "ENCRYPTION"). */
    public static final int ENCRYPT_OFF = 0x00;
    public static final int ENCRYPT_ON = 0x01;
    public static final int ENCRYPT_NOT_SUP = 0x02;
    public static final int ENCRYPT_REQ = 0x03;

    private Prelogin() {
    }

    /**
     * Rewrites the client's PRELOGIN toward the server: ENCRYPTION becomes {@code encryption}, what the proxy asks
     * of the server for its own leg; MARS off.
     *
     * @return the encryption the client asked for, {@link #ENCRYPT_NOT_SUP} when it named none
     */
    public static int rewriteRequest(ByteBuf packet, int encryption) {
        int asked = rewrite(packet, ENCRYPTION, encryption, ENCRYPT_NOT_SUP);
        rewrite(packet, MARS, 0, 0);
        return asked;
    }

    /** The encryption a PRELOGIN names, {@link #ENCRYPT_NOT_SUP} when it names none; the packet is left as it is. */
    public static int encryption(ByteBuf packet) {
        return rewrite(packet, ENCRYPTION, -1, ENCRYPT_NOT_SUP);
    }

    /**
     * Rewrites the server's answer toward the client: ENCRYPTION becomes {@code encryption}, what the proxy agrees
     * to on the client's leg; MARS off.
     *
     * @return the encryption the server answered, {@link #ENCRYPT_NOT_SUP} when it named none
     */
    public static int rewriteResponse(ByteBuf packet, int encryption) {
        int answered = rewrite(packet, ENCRYPTION, encryption, ENCRYPT_NOT_SUP);
        rewrite(packet, MARS, 0, 0);
        return answered;
    }

    /**
     * Sets the first byte of option {@code token} to {@code value} (negative: leaves it); returns what it was,
     * {@code absent} without it.
     */
    private static int rewrite(ByteBuf packet, int token, int value, int absent) {
        if (!TdsPackets.endsMessage(packet)) {
            throw new MalformedPacketException("a PRELOGIN message in more than one packet");
        }
        int data = packet.readerIndex() + TdsPackets.HEADER_BYTES;
        int end = packet.readerIndex() + TdsPackets.length(packet);
        for (int at = data; ; at += 5) {
            if (at >= end) {
                throw new MalformedPacketException("a PRELOGIN option table without its 0xFF terminator");
            }
            int option = packet.getUnsignedByte(at);
            if (option == TERMINATOR) {
                return absent;
            }
            if (at + 5 > end) {
                throw new MalformedPacketException("a PRELOGIN option table cut short");
            }
            if (option != token) {
                continue;
            }
            int offset = packet.getUnsignedShort(at + 1);
            int length = packet.getUnsignedShort(at + 3);
            if (length < 1 || data + offset + length > end) {
                throw new MalformedPacketException("PRELOGIN option " + token + " points outside the message");
            }
            int was = packet.getUnsignedByte(data + offset);
            if (value >= 0) {
                packet.setByte(data + offset, value);
            }
            return was;
        }
    }

    /** The ENCRYPTION value in words, for messages. */
    public static String describe(int encryption) {
        return switch (encryption) {
            case ENCRYPT_OFF -> "ENCRYPT_OFF (login encrypted)";
            case ENCRYPT_ON -> "ENCRYPT_ON";
            case ENCRYPT_NOT_SUP -> "ENCRYPT_NOT_SUP";
            case ENCRYPT_REQ -> "ENCRYPT_REQ";
            default -> "0x" + Integer.toHexString(encryption);
        };
    }
}

package io.memogate.proxy.mysql.message;

import io.memogate.proxy.mysql.codec.MySqlPackets;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * An ERR packet the proxy itself sends (protocol "ERR_Packet", with CLIENT_PROTOCOL_41):
 * <pre>
 * int&lt;1&gt;   0xFF
 * int&lt;2&gt;   error code
 * string[1] '#', then string[5] SQLSTATE
 * string   message, to the end of the packet
 * </pre>
 * Built in one place, {@link MySqlErrors}.
 */
public record ErrPacket(int code, String sqlState, String message) {

    public static final int HEADER = 0xFF;

    public ErrPacket {
        if (sqlState.length() != 5) {
            throw new IllegalArgumentException("SQLSTATE has 5 characters: " + sqlState);
        }
    }

    /** Writes the packet, header included, with {@code sequenceId}. */
    public void encode(ByteBuf out, int sequenceId) {
        byte[] text = message.getBytes(StandardCharsets.UTF_8);
        int length = Math.min(1 + 2 + 1 + 5 + text.length, MySqlPackets.MAX_PAYLOAD - 1);
        MySqlPackets.writeHeader(out, length, sequenceId);
        out.writeByte(HEADER).writeShortLE(code).writeByte('#').writeCharSequence(sqlState, StandardCharsets.US_ASCII);
        out.writeBytes(text, 0, length - 9);
    }
}

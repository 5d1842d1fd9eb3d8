package io.memogate.proxy.mysql.message;

import io.memogate.proxy.mysql.codec.MySqlPackets;
import io.netty.buffer.ByteBuf;

/**
 * The OK packet the proxy sends where it answers a command itself (a KILL QUERY it carried out): protocol
 * "OK_Packet", nothing affected, {@code status} as the server last reported it, no warnings.
 */
public final class OkPacket {

    public static final int HEADER = 0x00;

    private OkPacket() {
    }

    public static void encode(ByteBuf out, int sequenceId, int status) {
        MySqlPackets.writeHeader(out, 7, sequenceId);
        out.writeByte(HEADER).writeByte(0).writeByte(0).writeShortLE(status).writeShortLE(0);
    }
}

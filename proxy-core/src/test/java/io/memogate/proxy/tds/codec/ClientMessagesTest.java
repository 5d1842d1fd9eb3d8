package io.memogate.proxy.tds.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.memogate.proxy.tds.message.MalformedPacketException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.TooLongFrameException;
import org.junit.jupiter.api.Test;

/** Packets framed by their header and joined into messages at the end-of-message bit, fed in fragments. */
class ClientMessagesTest {

    private static EmbeddedChannel channel(int limit) {
        return new EmbeddedChannel(TdsPackets.framer(), new ClientMessages(limit));
    }

    private static byte[] packet(int type, boolean last, String data) {
        byte[] body = ByteBufUtil.decodeHexDump(data);
        byte[] packet = new byte[8 + body.length];
        packet[0] = (byte) type;                         // type
        packet[1] = (byte) (last ? 1 : 0);               // status: end of message
        packet[2] = (byte) (packet.length >> 8);         // length, header included, big-endian
        packet[3] = (byte) packet.length;
        System.arraycopy(body, 0, packet, 8, body.length); // spid, packet number, window: 0
        return packet;
    }

    @Test
    void aMessageOfTwoPacketsFedByteByByteComesOutWholeWithItsHeaders() {
        EmbeddedChannel channel = channel(1 << 20);
        byte[] first = packet(1, false, "0a0b");
        byte[] second = packet(1, true, "0c");
        for (byte b : first) {
            channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {b}));
        }
        assertThat((Object) channel.readInbound()).isNull();
        for (byte b : second) {
            channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {b}));
        }
        ByteBuf message = channel.readInbound();
        assertThat(ByteBufUtil.hexDump(message)).isEqualTo(ByteBufUtil.hexDump(first) + ByteBufUtil.hexDump(second));
        ByteBuf data = TdsPackets.data(message, channel.alloc());
        assertThat(ByteBufUtil.hexDump(data)).isEqualTo("0a0b0c");
        data.release();
        message.release();
        assertFalse(channel.finish());
    }

    @Test
    void anAttentionInsideNothingPassesAlone() {
        EmbeddedChannel channel = channel(1 << 20);
        channel.writeInbound(Unpooled.wrappedBuffer(packet(6, true, "")));
        ByteBuf attention = channel.readInbound();
        assertThat(TdsPackets.type(attention)).isEqualTo(6);
        attention.release();
        assertFalse(channel.finish());
    }

    @Test
    void anAttentionWithoutTheEndOfMessageBitIsMalformed() {
        EmbeddedChannel channel = channel(1 << 20);
        channel.writeInbound(Unpooled.wrappedBuffer(packet(1, false, "00")));
        // a server would take the packets after it for the rest of the attention
        assertThatThrownBy(() -> channel.writeInbound(Unpooled.wrappedBuffer(packet(6, false, ""))))
                .isInstanceOf(DecoderException.class).hasCauseInstanceOf(MalformedPacketException.class);
        assertFalse(channel.finish());
    }

    @Test
    void aPacketOfAnotherTypeInsideAMessageIsMalformed() {
        EmbeddedChannel channel = channel(1 << 20);
        channel.writeInbound(Unpooled.wrappedBuffer(packet(1, false, "00")));
        assertThatThrownBy(() -> channel.writeInbound(Unpooled.wrappedBuffer(packet(3, true, "00"))))
                .isInstanceOf(DecoderException.class).hasCauseInstanceOf(MalformedPacketException.class);
        assertFalse(channel.finish());
    }

    @Test
    void aMessageOverTheLimitFailsAsSoonAsItPassesIt() {
        EmbeddedChannel channel = channel(20);
        channel.writeInbound(Unpooled.wrappedBuffer(packet(1, false, "00".repeat(10))));
        assertThatThrownBy(() -> channel.writeInbound(Unpooled.wrappedBuffer(packet(1, false, "00".repeat(10)))))
                .isInstanceOf(TooLongFrameException.class);
        assertFalse(channel.finish());
    }

    @Test
    void aSinglePacketOverTheLimitFailsToo() {
        EmbeddedChannel channel = channel(1024);
        // one packet of 4,096 bytes marked end of message: a whole message over a limit of 1 KiB
        assertThatThrownBy(() -> channel.writeInbound(Unpooled.wrappedBuffer(packet(1, true, "00".repeat(4088)))))
                .isInstanceOf(TooLongFrameException.class);
        assertFalse(channel.finish());
    }

    @Test
    void ownMessagesAreCutToThePacketSizeTheLastMarkedEndOfMessage() {
        ByteBuf out = TdsPackets.message(Unpooled.buffer().alloc(), 4, Unpooled.wrappedBuffer(new byte[600]), 512, 51);
        assertThat(TdsPackets.length(out)).isEqualTo(512);
        assertThat(TdsPackets.endsMessage(out)).isFalse();
        assertThat(TdsPackets.spid(out)).isEqualTo(51);
        out.skipBytes(512);
        assertThat(TdsPackets.length(out)).isEqualTo(8 + 600 - 504);
        assertThat(TdsPackets.endsMessage(out)).isTrue();
        out.release();
    }
}

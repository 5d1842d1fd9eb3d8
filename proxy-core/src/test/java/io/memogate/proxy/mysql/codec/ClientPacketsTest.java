package io.memogate.proxy.mysql.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.TooLongFrameException;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** A client's bytes become whole payloads, headers kept; one over the limit is refused as soon as it passes it. */
class ClientPacketsTest {

    private static EmbeddedChannel channel(int limit) {
        return new EmbeddedChannel(MySqlPackets.framer(), new ClientPackets(limit));
    }

    @Test
    void aPacketFedInFragmentsComesOutWholeAndUnchanged() {
        EmbeddedChannel channel = channel(1024);
        byte[] packet = {
                0x09, 0x00, 0x00, // payload length 9
                0x00,             // sequence id
                0x03,             // COM_QUERY
                'S', 'E', 'L', 'E', 'C', 'T', ' ', '1'};
        for (byte b : packet) {
            channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {b}));
        }
        ByteBuf frame = channel.readInbound();
        assertThat(ByteBufUtil.getBytes(frame)).as(ByteBufUtil.prettyHexDump(frame)).isEqualTo(packet);
        assertThat(MySqlPackets.firstByte(frame)).isEqualTo(0x03);
        frame.release();
        assertFalse(channel.finish());
    }

    @Test
    void aPayloadOfMoreThanOnePacketIsJoinedWithItsHeadersKept() {
        EmbeddedChannel channel = channel(64 * 1024 * 1024);
        byte[] payload = new byte[MySqlPackets.MAX_PAYLOAD + 10];
        Arrays.fill(payload, (byte) 'x');
        payload[0] = 0x03;
        ByteBuf wire = Unpooled.buffer();
        MySqlPackets.writeHeader(wire, MySqlPackets.MAX_PAYLOAD, 0);
        wire.writeBytes(payload, 0, MySqlPackets.MAX_PAYLOAD);
        MySqlPackets.writeHeader(wire, 10, 1);
        wire.writeBytes(payload, MySqlPackets.MAX_PAYLOAD, 10);
        int wireBytes = wire.readableBytes();
        channel.writeInbound(wire);
        ByteBuf frame = channel.readInbound();
        assertThat(frame.readableBytes()).isEqualTo(wireBytes);
        assertThat(ByteBufUtil.getBytes(MySqlPackets.payload(frame))).isEqualTo(payload);
        assertThat((Object) channel.readInbound()).isNull();
        frame.release();
        assertFalse(channel.finish());
    }

    @Test
    void aHeaderAnnouncingMoreThanTheLimitFailsBeforeItsBytesAreHeld() {
        EmbeddedChannel channel = new EmbeddedChannel(MySqlPackets.framer(8), new ClientPackets(8));
        ByteBuf header = Unpooled.buffer();
        MySqlPackets.writeHeader(header, 1000, 0);
        assertThatThrownBy(() -> channel.writeInbound(header)).isInstanceOf(TooLongFrameException.class);
        assertFalse(channel.finish());
    }

    @Test
    void aPayloadOverTheLimitFailsNamingIt() {
        EmbeddedChannel channel = channel(8);
        ByteBuf wire = Unpooled.buffer();
        MySqlPackets.writeHeader(wire, 9, 0);
        wire.writeBytes(new byte[9]);
        assertThatThrownBy(() -> channel.writeInbound(wire)).isInstanceOfSatisfying(PacketTooLargeException.class,
                e -> assertThat(e.limit()).isEqualTo(8));
        assertFalse(channel.finish());
    }
}

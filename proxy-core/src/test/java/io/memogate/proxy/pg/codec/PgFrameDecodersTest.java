package io.memogate.proxy.pg.codec;

import static io.memogate.proxy.pg.codec.FrameAssertions.assertTwoMessagesFramedWhenFedOneByteAtATime;
import static io.memogate.proxy.pg.codec.FrameAssertions.assertFrame;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.TooLongFrameException;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class PgFrameDecodersTest {

    @Test
    void typedFramesComeOutWholeWhenFedOneByteAtATime() {
        assertTwoMessagesFramedWhenFedOneByteAtATime(new EmbeddedChannel(PgFrameDecoders.typed(1024)));
    }

    @Test
    void startupPacketsAreFramedByTheirLengthAlone() {
        EmbeddedChannel channel = new EmbeddedChannel(PgFrameDecoders.startup());
        byte[] sslRequest = HexFormat.of().parseHex(
                "00000008"      // length 8, counting itself
                + "04d2162f");  // 80877103: SSLRequest
        channel.writeInbound(Unpooled.wrappedBuffer(sslRequest, 0, 3));
        assertThat((Object) channel.readInbound()).isNull();
        channel.writeInbound(Unpooled.wrappedBuffer(sslRequest, 3, 5));
        assertFrame(channel.readInbound(), "0000000804d2162f");
        assertFalse(channel.finish());
    }

    @Test
    void aConnectionEndedInsideAStartupPacketIsToldFromOneEndedBetweenPackets() {
        PgFrameDecoders.StartupFrameDecoder between = PgFrameDecoders.startup();
        EmbeddedChannel quiet = new EmbeddedChannel(between);
        assertFalse(quiet.finish());
        assertThat(between.endedMidPacket()).as("nothing sent").isFalse();

        PgFrameDecoders.StartupFrameDecoder inside = PgFrameDecoders.startup();
        EmbeddedChannel cut = new EmbeddedChannel(inside);
        cut.writeInbound(Unpooled.wrappedBuffer(HexFormat.of().parseHex(
                "00000028" + "0003"))); // a StartupMessage of 40 bytes, 6 of them sent
        assertFalse(cut.finish());
        assertThat(inside.endedMidPacket()).as("PostgreSQL's incomplete startup packet").isTrue();
    }

    @Test
    void aLengthOverTheLimitFailsAsSoonAsTheHeaderArrives() {
        EmbeddedChannel channel = new EmbeddedChannel(PgFrameDecoders.typed(1024));
        ByteBuf header = Unpooled.wrappedBuffer(HexFormat.of().parseHex(
                "51" + "00100000")); // Query declaring 1 MiB, over the 1 KiB limit
        assertThatThrownBy(() -> channel.writeInbound(header)).isInstanceOf(TooLongFrameException.class);
        channel.finishAndReleaseAll();
    }

    @Test
    void aLengthBelowTheHeaderSizeIsCorrupt() {
        EmbeddedChannel channel = new EmbeddedChannel(PgFrameDecoders.typed(1024));
        ByteBuf header = Unpooled.wrappedBuffer(HexFormat.of().parseHex(
                "51" + "00000002")); // length 2 cannot even hold itself
        assertThatThrownBy(() -> channel.writeInbound(header)).isInstanceOf(CorruptedFrameException.class);
        channel.finishAndReleaseAll();
    }
}

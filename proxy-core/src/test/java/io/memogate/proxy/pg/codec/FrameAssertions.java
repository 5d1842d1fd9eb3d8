package io.memogate.proxy.pg.codec;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.HexFormat;

/** What the framing tests share: sample input, and a check of one emitted frame's bytes. */
final class FrameAssertions {

    private static final byte[] TWO_MESSAGES = HexFormat.of().parseHex(
            "51" + "0000000d" + "73656c6563742031" + "00"   // Query: 'Q', length 13, "select 1", NUL
            + "58" + "00000004");                          // Terminate: 'X', length 4

    private FrameAssertions() {}

    /** A Query and a Terminate, fed one byte at a time, come out as two whole frames and nothing else. */
    static void assertTwoMessagesFramedWhenFedOneByteAtATime(EmbeddedChannel channel) {
        for (byte b : TWO_MESSAGES) {
            channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {b}));
        }
        assertFrame(channel.readInbound(), "510000000d73656c6563742031" + "00");
        assertFrame(channel.readInbound(), "5800000004");
        assertThat(channel.finish()).as("nothing left over").isFalse();
    }

    /** Checks a frame's bytes and releases it. */
    static void assertFrame(ByteBuf frame, String expectedHex) {
        try {
            assertThat(ByteBufUtil.hexDump(frame))
                    .as("frame:%n%s", ByteBufUtil.prettyHexDump(frame))
                    .isEqualTo(expectedHex);
        } finally {
            frame.release();
        }
    }
}

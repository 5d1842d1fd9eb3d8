package io.memogate.proxy.pg.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.TooLongFrameException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

class MessageRunDecoderTest {

    /** The server's answer to "select 1": four messages. */
    private static final String ANSWER =
            "54" + "00000021" + "0001" + "3f636f6c756d6e3f00" // RowDescription, 1 field "?column?"
                    + "00000000" + "0000" + "00000017" + "0004" + "ffffffff" + "0000" //   table, attr, int4, size, mod, text
            + "44" + "0000000b" + "0001" + "00000001" + "31"   // DataRow: 1 column, length 1, "1"
            + "43" + "0000000d" + "53454c454354203100"          // CommandComplete "SELECT 1"
            + "5a" + "00000005" + "49";                         // ReadyForQuery, idle

    private final List<String> inspected = new ArrayList<>();

    private EmbeddedChannel channel(int maxMessageBytes) {
        return new EmbeddedChannel(new MessageRunDecoder(
                (type, buf, index, length) -> {
                    inspected.add((char) type + ":" + length);
                    return null;
                }, maxMessageBytes));
    }

    @Test
    void aWholeAnswerIsOneRunAndEveryMessageIsInspectedOnce() {
        EmbeddedChannel channel = channel(1 << 20);
        channel.writeInbound(Unpooled.wrappedBuffer(HexFormat.of().parseHex(ANSWER)));

        assertRun(channel.readInbound(), ANSWER);
        assertThat((Object) channel.readInbound()).isNull();
        assertThat(inspected).containsExactly("T:33", "D:11", "C:13", "Z:5");
        assertFalse(channel.finish());
    }

    @Test
    void fedOneByteAtATimeNothingIsLostOrReorderedAndPartialMessagesWait() {
        EmbeddedChannel channel = channel(1 << 20);
        byte[] bytes = HexFormat.of().parseHex(ANSWER);
        StringBuilder forwarded = new StringBuilder();
        for (byte b : bytes) {
            channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {b}));
            ByteBuf run;
            while ((run = channel.readInbound()) != null) {
                forwarded.append(ByteBufUtil.hexDump(run));
                run.release();
            }
        }
        assertThat(forwarded.toString()).isEqualTo(ANSWER);
        assertThat(inspected).containsExactly("T:33", "D:11", "C:13", "Z:5");
        assertFalse(channel.finish());
    }

    @Test
    void aReplacedMessageSplitsTheRunAndTakesItsPlace() {
        // The proxy answers an error itself: the DataRow is swapped for a NoticeResponse-sized stand-in.
        String replacement = "4e" + "00000004";
        EmbeddedChannel channel = new EmbeddedChannel(new MessageRunDecoder((type, buf, index, length) ->
                type == 'D' ? Unpooled.wrappedBuffer(HexFormat.of().parseHex(replacement)) : null, 1 << 20));
        channel.writeInbound(Unpooled.wrappedBuffer(HexFormat.of().parseHex(ANSWER)));

        int dataRowStart = 2 * (1 + 0x21);
        int dataRowEnd = dataRowStart + 2 * (1 + 0x0b);
        assertRun(channel.readInbound(), ANSWER.substring(0, dataRowStart));
        assertRun(channel.readInbound(), replacement);
        assertRun(channel.readInbound(), ANSWER.substring(dataRowEnd));
        assertThat((Object) channel.readInbound()).isNull();
        assertFalse(channel.finish());
    }

    @Test
    void aLengthBelowFourIsCorrupt() {
        EmbeddedChannel channel = channel(1 << 20);
        assertThatThrownBy(() -> channel.writeInbound(Unpooled.wrappedBuffer(HexFormat.of().parseHex("4400000003"))))
                .isInstanceOf(CorruptedFrameException.class);
        channel.finishAndReleaseAll();
    }

    @Test
    void aLengthOverTheLimitFailsOnItsHeader() {
        EmbeddedChannel channel = channel(1024);
        assertThatThrownBy(() -> channel.writeInbound(Unpooled.wrappedBuffer(HexFormat.of().parseHex("4400100000"))))
                .isInstanceOf(TooLongFrameException.class);
        channel.finishAndReleaseAll();
    }

    private static void assertRun(ByteBuf run, String expectedHex) {
        try {
            assertThat(ByteBufUtil.hexDump(run)).as("run:%n%s", ByteBufUtil.prettyHexDump(run)).isEqualTo(expectedHex);
        } finally {
            run.release();
        }
    }
}

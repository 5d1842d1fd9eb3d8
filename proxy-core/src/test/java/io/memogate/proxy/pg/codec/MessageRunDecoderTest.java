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
import java.util.Arrays;
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
    void aBigRowIsForwardedAsItArrivesAndWhatFollowsItIsInspectedAsUsual() {
        EmbeddedChannel channel = streamingRows();
        byte[] row = dataRow(200_000);
        byte[] tail = HexFormat.of().parseHex(ANSWER.substring(2 * (1 + 0x21) + 2 * (1 + 0x0b))); // C, Z
        byte[] rowDescription = HexFormat.of().parseHex(ANSWER.substring(0, 2 * (1 + 0x21)));

        // Read 1: the RowDescription and the row's first 70,000 bytes go on at once, as one run.
        channel.writeInbound(Unpooled.wrappedBuffer(rowDescription, Arrays.copyOfRange(row, 0, 70_000)));
        assertRun(channel.readInbound(), hex(rowDescription) + hex(Arrays.copyOfRange(row, 0, 70_000)));
        // Read 2: the middle, forwarded as it came.
        channel.writeInbound(Unpooled.wrappedBuffer(Arrays.copyOfRange(row, 70_000, 150_000)));
        assertRun(channel.readInbound(), hex(Arrays.copyOfRange(row, 70_000, 150_000)));
        assertThat(channel.pipeline().get(MessageRunDecoder.class).midMessage())
                .as("what is written to the client now would land inside the row").isTrue();
        // Read 3: the row's end and the next messages, which are framed and inspected as always.
        channel.writeInbound(Unpooled.wrappedBuffer(Arrays.copyOfRange(row, 150_000, row.length), tail));
        assertRun(channel.readInbound(), hex(Arrays.copyOfRange(row, 150_000, row.length)));
        assertRun(channel.readInbound(), hex(tail));
        assertThat(channel.pipeline().get(MessageRunDecoder.class).midMessage()).isFalse();

        assertThat((Object) channel.readInbound()).isNull();
        assertThat(inspected).as("the streamed row is not shown").containsExactly("T:33", "C:13", "Z:5");
        assertFalse(channel.finish());
    }

    @Test
    void aRowUnderTheStreamingSizeAndABigMessageTheInspectorNeedsWaitToBeWhole() {
        EmbeddedChannel channel = streamingRows();
        byte[] smallRow = dataRow(FrameLength.STREAM_AFTER_BYTES - 100);
        channel.writeInbound(Unpooled.wrappedBuffer(Arrays.copyOfRange(smallRow, 0, 1000)));
        assertThat((Object) channel.readInbound()).isNull();
        channel.writeInbound(Unpooled.wrappedBuffer(Arrays.copyOfRange(smallRow, 1000, smallRow.length)));
        assertRun(channel.readInbound(), hex(smallRow));

        byte[] bigNotice = dataRow(200_000);
        bigNotice[0] = 'N'; // the inspector allows rows only
        channel.writeInbound(Unpooled.wrappedBuffer(Arrays.copyOfRange(bigNotice, 0, 100_000)));
        assertThat((Object) channel.readInbound()).isNull();
        channel.writeInbound(Unpooled.wrappedBuffer(Arrays.copyOfRange(bigNotice, 100_000, bigNotice.length)));
        assertRun(channel.readInbound(), hex(bigNotice));
        assertThat(inspected).containsExactly("D:" + (smallRow.length - 1), "N:" + (bigNotice.length - 1));
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

    /** A decoder whose inspector records what it is shown and lets DataRows stream. */
    private EmbeddedChannel streamingRows() {
        return new EmbeddedChannel(new MessageRunDecoder(new MessageRunDecoder.Inspector() {
            @Override
            public ByteBuf message(byte type, ByteBuf buf, int index, int length) {
                inspected.add((char) type + ":" + length);
                return null;
            }

            @Override
            public boolean mayStream(byte type) {
                return type == 'D';
            }
        }, 1 << 20));
    }

    /** A DataRow of one column of {@code valueBytes} bytes, whole: type, length, 1 column, its length, the value. */
    private static byte[] dataRow(int valueBytes) {
        ByteBuf row = Unpooled.buffer();
        row.writeByte('D').writeInt(4 + 2 + 4 + valueBytes).writeShort(1).writeInt(valueBytes);
        for (int i = 0; i < valueBytes; i++) {
            row.writeByte('a' + i % 26);
        }
        return ByteBufUtil.getBytes(row);
    }

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    private static void assertRun(ByteBuf run, String expectedHex) {
        try {
            assertThat(ByteBufUtil.hexDump(run)).as("run:%n%s", ByteBufUtil.prettyHexDump(run)).isEqualTo(expectedHex);
        } finally {
            run.release();
        }
    }
}

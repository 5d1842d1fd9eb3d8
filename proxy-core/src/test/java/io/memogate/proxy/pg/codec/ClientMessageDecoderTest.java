package io.memogate.proxy.pg.codec;

import static io.memogate.proxy.pg.codec.FrameAssertions.assertTwoMessagesFramedWhenFedOneByteAtATime;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledHeapByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.TooLongFrameException;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ClientMessageDecoderTest {

    private static final byte[] SYNC = HexFormat.of().parseHex("53" + "00000004"); // Sync: 'S', length 4

    /** Streams CopyData and Bind, as a READY session does (FunctionCall too). */
    private static EmbeddedChannel channel(int maxMessageBytes) {
        return new EmbeddedChannel(new ClientMessageDecoder(type -> type == 'd' || type == 'B', maxMessageBytes));
    }

    @Test
    void messagesComeOutWholeWhenFedOneByteAtATime() {
        assertTwoMessagesFramedWhenFedOneByteAtATime(channel(1024));
    }

    @Test
    void aLongCopyDataComesOutAsAHeadAndPartsThatAddUpToItExactly() {
        EmbeddedChannel channel = channel(1024);
        byte[] copyData = message('d', 200 * 1024);
        byte[] input = concat(copyData, SYNC);
        List<ByteBuf> out = feedInChunks(channel, input, 16 * 1024);

        ByteBuf head = out.get(0);
        assertThat(head.readableBytes()).as("the head holds at least 64 KiB")
                .isGreaterThanOrEqualTo(ClientMessageDecoder.STREAM_AFTER_BYTES).isLessThan(copyData.length);
        assertThat(ByteBufUtil.hexDump(head, 0, 5)).as("type and full length").isEqualTo("6400031fff");
        assertThat(ClientMessageDecoder.missingBytes(head)).isEqualTo(copyData.length - head.readableBytes());
        ByteBuf last = out.get(out.size() - 1);
        assertThat(ByteBufUtil.hexDump(last)).as("the next message comes out whole, after the parts")
                .isEqualTo("5300000004");
        assertThat(joined(out)).isEqualTo(input);
        out.forEach(ByteBuf::release);
        assertFalse(channel.finish());
    }

    @Test
    void aLongQueryIsHeldWholeWithinTheLimit() {
        EmbeddedChannel channel = channel(1 << 20);
        byte[] query = message('Q', 200 * 1024);
        List<ByteBuf> out = feedInChunks(channel, query, 16 * 1024);
        assertThat(out).hasSize(1);
        assertThat(joined(out)).isEqualTo(query);
        out.forEach(ByteBuf::release);
        assertFalse(channel.finish());
    }

    /**
     * A 64 MiB Query read 64 KiB at a time is gathered by doubling its buffer, not by Netty's 4 MiB steps past
     * 4 MiB, each with a copy of all received so far (over 500 MiB allocated and copied for this one, in the
     * time of the event loop the other sessions share).
     */
    @Test
    void aLongQueryIsGatheredByDoublingItsBuffer() {
        GrowthCountingAllocator allocator = new GrowthCountingAllocator();
        EmbeddedChannel channel = channel(64 << 20);
        channel.config().setAllocator(allocator);
        byte[] query = message('Q', 64 << 20);
        List<ByteBuf> out = feed(channel, allocator, query, query.length);
        assertThat(out).hasSize(1);
        assertThat(joined(out)).isEqualTo(query);
        assertThat(allocator.grownBytes).as("bytes of the buffers made while the Query arrived")
                .hasValueLessThan(3L * query.length);
        out.forEach(ByteBuf::release);
        assertFalse(channel.finish());
    }

    /** A client that announces a 64 MiB Query and sends ten bytes of it makes the proxy hold no 64 MiB. */
    @Test
    void theRoomMadeAheadIsBoundedByWhatArrivedNotByTheAnnouncedLength() {
        GrowthCountingAllocator allocator = new GrowthCountingAllocator();
        EmbeddedChannel channel = channel(64 << 20);
        channel.config().setAllocator(allocator);
        byte[] query = message('Q', 64 << 20);
        assertThat(feed(channel, allocator, query, 15)).isEmpty();
        assertThat(allocator.largest).as("the largest buffer made").hasValueLessThan(1 << 20);
        channel.finishAndReleaseAll();
    }

    /** The first {@code bytes} of {@code message}, as socket reads of 64 KiB come; the frames decoded. */
    private static List<ByteBuf> feed(EmbeddedChannel channel, GrowthCountingAllocator allocator, byte[] message,
                                      int bytes) {
        int chunk = 64 * 1024;
        List<ByteBuf> out = new ArrayList<>();
        for (int offset = 0; offset < bytes; offset += chunk) {
            // As a socket read comes: a growable buffer of the channel's allocator.
            int length = Math.min(chunk, bytes - offset);
            channel.writeInbound(allocator.heapBuffer(length).writeBytes(message, offset, length));
            ByteBuf frame;
            while ((frame = channel.readInbound()) != null) {
                out.add(frame);
            }
        }
        return out;
    }

    @Test
    void aTypeThePolicyRefusesIsHeldWhole() {
        EmbeddedChannel channel = new EmbeddedChannel(new ClientMessageDecoder(type -> false, 1 << 20));
        byte[] copyData = message('d', 200 * 1024);
        List<ByteBuf> out = feedInChunks(channel, copyData, 16 * 1024);
        assertThat(out).hasSize(1);
        out.forEach(ByteBuf::release);
        assertFalse(channel.finish());
    }

    /** What a decoder with a 1 KiB limit throws at the header {@code hex}, as soon as it arrives. */
    private static Throwable headerFailure(String hex) {
        EmbeddedChannel channel = channel(1024);
        try {
            return catchThrowable(() -> channel.writeInbound(Unpooled.wrappedBuffer(HexFormat.of().parseHex(hex))));
        } finally {
            channel.finishAndReleaseAll();
        }
    }

    @Test
    void theLimitHoldsForMessagesHeldWholeAndFailsAsSoonAsTheHeaderArrives() {
        assertThat(headerFailure("51" + "00100000")) // Query declaring 1 MiB, over the 1 KiB limit
                .isInstanceOf(MessageOverLimitException.class)
                .hasMessage("message of 1048576 bytes exceeds limits.maxMessageBytes (1024)");
        // Over PostgreSQL's own 1 GB no message is a statement: it is not told to raise the setting.
        assertThat(headerFailure("51" + "48545450")) // 'Q', then "HTTP" read as a length: 1.2 GB
                .isInstanceOf(TooLongFrameException.class).isNotInstanceOf(MessageOverLimitException.class);
    }

    @Test
    void aStreamedTypeIsNotBoundByTheLimitButByPostgresqlsOwn() {
        EmbeddedChannel within = channel(1024);
        within.writeInbound(Unpooled.wrappedBuffer(HexFormat.of().parseHex(
                "42" + "00100000"))); // Bind declaring 1 MiB: allowed, waits for its head
        assertThat((Object) within.readInbound()).isNull();
        within.finishAndReleaseAll();

        EmbeddedChannel over = channel(1024);
        ByteBuf header = Unpooled.wrappedBuffer(HexFormat.of().parseHex(
                "42" + "7fffffff")); // Bind declaring 2 GiB
        assertThatThrownBy(() -> over.writeInbound(header)).isInstanceOf(TooLongFrameException.class)
                .hasMessageContaining("the most PostgreSQL takes");
        over.finishAndReleaseAll();
    }

    @Test
    void aLengthBelowTheHeaderSizeIsCorrupt() {
        assertThat(headerFailure("51" + "00000002")) // length 2 cannot even hold itself
                .isInstanceOf(CorruptedFrameException.class);
    }

    /**
     * As PostgreSQL, at the header: a byte stream out of step (here an SSLRequest sent after login, whose
     * first byte reads as a type and the next four as a length of 2052) fails at once, not after the
     * proxy waited for the body promised.
     */
    @Test
    void aTypeNoClientSendsFailsOnItsHeader() {
        assertThat(headerFailure("00" + "00000804")) // SSLRequest 00000008 04d2162f, framed as a typed message
                .isInstanceOf(CorruptedFrameException.class).hasMessage("unknown message type '\\x00'");
        assertThat(headerFailure("7a" + "00000004"))
                .isInstanceOf(CorruptedFrameException.class).hasMessage("unknown message type 'z'");
    }

    /**
     * PostgreSQL refuses a type it does not know on its byte alone, before any length word: a client that sent
     * just that byte (the rest of a stream out of step, cut short) gets its FATAL, not a wait for four more.
     */
    @Test
    void aTypeNoClientSendsFailsOnItsTypeByteAlone() {
        assertThat(headerFailure("7a")).isInstanceOf(CorruptedFrameException.class)
                .hasMessage("unknown message type 'z'");
        EmbeddedChannel channel = channel(1024);
        channel.writeInbound(Unpooled.wrappedBuffer(HexFormat.of().parseHex("51" + "0000"))); // a Query, cut short
        assertThat((Object) channel.readInbound()).as("waits for the rest of a known type's header").isNull();
        assertFalse(channel.finish());
    }

    /** A type the receiver refuses where it is (a Parse while the server reads COPY data), on its byte alone. */
    @Test
    void aTypeThePolicyRefusesFailsOnItsTypeByte() {
        ClientMessageDecoder.StreamPolicy copying = new ClientMessageDecoder.StreamPolicy() {
            @Override
            public boolean mayStream(byte type) {
                return false;
            }

            @Override
            public Optional<String> refusal(byte type) {
                return type == 'd' ? Optional.empty()
                        : Optional.of("unexpected message type 'P' during COPY from stdin");
            }
        };
        EmbeddedChannel channel = new EmbeddedChannel(new ClientMessageDecoder(copying, 1024));
        channel.writeInbound(Unpooled.wrappedBuffer(HexFormat.of().parseHex("64" + "00000006" + "310a"))); // d "1\n"
        ByteBuf copyData = channel.readInbound();
        assertThat(copyData.readableBytes()).isEqualTo(7);
        copyData.release();
        assertThatThrownBy(() -> channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {'P'})))
                .isInstanceOf(CorruptedFrameException.class)
                .hasMessage("unexpected message type 'P' during COPY from stdin");
        channel.finishAndReleaseAll();
    }

    @Test
    void aShortTypeLongerThanPostgresqlTakesFailsOnItsHeaderAndALongTypeMayBeThatLong() {
        assertThat(headerFailure("53" + "00002711")) // Sync of 10001 bytes: over PQ_SMALL_MESSAGE_LIMIT
                .isInstanceOf(CorruptedFrameException.class)
                .hasMessage("invalid message length: a 'S' message of 10001 bytes,"
                        + " where PostgreSQL takes at most 10000");
        EmbeddedChannel channel = channel(1 << 20);
        channel.writeInbound(Unpooled.wrappedBuffer(HexFormat.of().parseHex("51" + "00002711"))); // a Query may
        assertThat((Object) channel.readInbound()).as("waits for the Query's body").isNull();
        channel.finishAndReleaseAll();
    }

    /** Heap buffers that count the bytes of the arrays they made to grow (each a copy), and the largest array. */
    private static final class GrowthCountingAllocator extends AbstractByteBufAllocator {

        final AtomicLong grownBytes = new AtomicLong();
        final AtomicLong largest = new AtomicLong();

        GrowthCountingAllocator() {
            super(false);
        }

        @Override
        protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
            return new UnpooledHeapByteBuf(this, initialCapacity, maxCapacity) {
                /** False while the constructor allocates the first array (set by the initializer after it). */
                private boolean made;

                {
                    made = true;
                }

                @Override
                protected byte[] allocateArray(int capacity) {
                    if (made) {
                        grownBytes.addAndGet(capacity);
                    }
                    largest.accumulateAndGet(capacity, Math::max);
                    return super.allocateArray(capacity);
                }
            };
        }

        @Override
        protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
            return newHeapBuffer(initialCapacity, maxCapacity);
        }

        @Override
        public boolean isDirectBufferPooled() {
            return false;
        }
    }

    /** A message of {@code totalBytes} (type byte included) whose body counts up, so misplaced bytes show. */
    private static byte[] message(char type, int totalBytes) {
        byte[] bytes = new byte[totalBytes];
        bytes[0] = (byte) type;
        Unpooled.wrappedBuffer(bytes).setInt(1, totalBytes - 1);
        for (int i = 5; i < totalBytes; i++) {
            bytes[i] = (byte) i;
        }
        return bytes;
    }

    private static List<ByteBuf> feedInChunks(EmbeddedChannel channel, byte[] input, int chunk) {
        List<ByteBuf> out = new ArrayList<>();
        for (int offset = 0; offset < input.length; offset += chunk) {
            channel.writeInbound(Unpooled.wrappedBuffer(input, offset, Math.min(chunk, input.length - offset)));
            ByteBuf frame;
            while ((frame = channel.readInbound()) != null) {
                out.add(frame);
            }
        }
        return out;
    }

    private static byte[] joined(List<ByteBuf> frames) {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        frames.forEach(frame -> all.writeBytes(ByteBufUtil.getBytes(frame)));
        return all.toByteArray();
    }

    private static byte[] concat(byte[] first, byte[] second) {
        byte[] both = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }
}

package io.memogate.proxy.pg.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;
import java.util.Optional;

/**
 * Framing of the client's typed messages: each complete message is emitted as a retained slice of the
 * read buffer (header included), so forwarding it copies nothing, and the session can hold it for
 * admission, decode it, or answer it itself.
 *
 * <p>Most messages must be whole before the proxy can act on them (a Query's text is estimated), and
 * {@code limits.maxMessageBytes} bounds what that may cost. A message the proxy needs only the start
 * of is not held whole when the {@link StreamPolicy} allows it: a Bind carrying a 100 MB parameter, or
 * a CopyData carrying a 100 MB row. From {@value #STREAM_AFTER_BYTES} bytes on, what has arrived of it
 * (at least that much) is emitted as its head, a slice that starts with the type byte and the full
 * length like any frame but holds only the first part of the body, and the rest is emitted as plain
 * slices, read by read, with nothing of the next message in them. The receiver tells a head by its
 * length field (see {@link #missingBytes}) and counts the parts. Such messages are limited only by
 * PostgreSQL's own bound, which the server enforces.
 */
public final class ClientMessageDecoder extends ByteToMessageDecoder {

    /** Which message types may be relayed in parts, asked when such a message is too long to wait for. */
    @FunctionalInterface
    public interface StreamPolicy {
        /** The receiver can act on a head of this type (has nothing to learn past its first 64 KiB). */
        boolean mayStream(byte type);

        /** Why the receiver refuses a message of this type where it is now, on its type byte alone. */
        default Optional<String> refusal(byte type) {
            return Optional.empty();
        }
    }

    /** A message this long is relayed in parts if its type may be; the head holds at least this much. */
    public static final int STREAM_AFTER_BYTES = FrameLength.STREAM_AFTER_BYTES;

    /** PostgreSQL's PQ_LARGE_MESSAGE_LIMIT, rounded: no server takes a longer message. */
    public static final int SERVER_MAX_MESSAGE_BYTES = 1 << 30;
    private static final String SERVER_LIMIT_TEXT = SERVER_MAX_MESSAGE_BYTES + ", the most PostgreSQL takes";

    private static final int HEADER_BYTES = 5;

    private final StreamPolicy policy;
    private final int maxMessageBytes;
    private final String limitText;
    /** Bytes still to come of a message being relayed in parts. */
    private int streamRemaining;

    /** @param maxMessageBytes limits.maxMessageBytes: the longest message held whole */
    public ClientMessageDecoder(StreamPolicy policy, int maxMessageBytes) {
        this.policy = policy;
        this.maxMessageBytes = maxMessageBytes;
        this.limitText = "limits.maxMessageBytes (" + maxMessageBytes + ")";
    }

    /**
     * Bytes of the message starting at {@code frame}'s reader index that are not in {@code frame}: 0 for
     * a whole message, the size of its remaining parts for a head.
     */
    public static int missingBytes(ByteBuf frame) {
        return 1 + frame.getInt(frame.readerIndex() + 1) - frame.readableBytes();
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        int readable = in.readableBytes();
        if (streamRemaining > 0) {
            int part = Math.min(streamRemaining, readable);
            if (part > 0) {
                out.add(in.readRetainedSlice(part));
                streamRemaining -= part;
            }
            return;
        }
        int start = in.readerIndex();
        byte type = in.getByte(start);
        // On the type byte alone, as PostgreSQL does: it reads no length word for a type it does not know.
        FrontendTypeCheck.checkType(in, type);
        Optional<String> refusal = policy.refusal(type);
        if (refusal.isPresent()) {
            in.skipBytes(in.readableBytes()); // the connection is closing: see FrameLength.check
            throw new BadHeaderException(refusal.get());
        }
        if (readable < HEADER_BYTES) {
            return;
        }
        int length = in.getInt(start + 1);
        FrontendTypeCheck.checkLength(in, type, length);
        boolean streamable = length >= STREAM_AFTER_BYTES && policy.mayStream(type);
        if (streamable) {
            FrameLength.check(in, length, SERVER_MAX_MESSAGE_BYTES, SERVER_LIMIT_TEXT);
        } else if (length > maxMessageBytes && length <= SERVER_MAX_MESSAGE_BYTES) {
            in.skipBytes(in.readableBytes()); // the connection is closing: see FrameLength.check
            throw new MessageOverLimitException(length, maxMessageBytes);
        } else {
            FrameLength.check(in, length, maxMessageBytes, limitText);
        }
        int messageBytes = 1 + length;
        if (readable >= messageBytes) {
            out.add(in.readRetainedSlice(messageBytes));
        } else if (streamable && readable >= STREAM_AFTER_BYTES) {
            out.add(in.readRetainedSlice(readable));
            streamRemaining = messageBytes - readable;
        } else if (!streamable) {
            reserve(in, messageBytes - readable);
        }
    }

    /**
     * Why the policy now refuses the message whose first bytes are buffered, waiting for the rest: asked when
     * its answer may have changed since they came (the server began to read COPY data meanwhile).
     */
    public Optional<String> refusalOfBufferedMessage() {
        ByteBuf buffered = internalBuffer();
        return streamRemaining > 0 || !buffered.isReadable() ? Optional.empty()
                : policy.refusal(buffered.getByte(buffered.readerIndex()));
    }

    /**
     * Makes room ahead for the rest of a long message held whole. Left to itself the cumulation grows read by
     * read, by doubling up to 4 MiB and by 4 MiB steps after that (Netty's calculateNewCapacity), each step a
     * new buffer and a copy of all received so far: a 64 MiB Query cost about 540 MiB of copying, 200-280 ms
     * of the event loop that every other session on it waited through (bench/log/long-queries.md, "A 64 MiB
     * Query: what the other sessions waited for"). Here it doubles all the way (for a 64 MiB Query, 184 MB of buffers made in all instead of 574 MB). It grows by
     * no more than has arrived, never to the size the header announces: a client that announces 64 MiB and
     * sends ten bytes holds no 64 MiB.
     * Only while no frame sliced from the cumulation is alive: growing it in place moves the memory under
     * those slices, which Netty's own cumulator avoids as well (it then copies into a new buffer).
     */
    private static void reserve(ByteBuf in, int missing) {
        int ahead = Math.min(missing, Math.max(in.readableBytes(), STREAM_AFTER_BYTES));
        // Only once the room made before is (nearly) used up: growing by what arrived at each read would step.
        if (missing >= STREAM_AFTER_BYTES && in.writableBytes() < STREAM_AFTER_BYTES
                && ahead <= in.maxWritableBytes() && in.refCnt() == 1) {
            in.ensureWritable(ahead);
        }
    }
}

package io.memogate.proxy.pg.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;

/**
 * Relay framing for the server-to-client direction once a session is up: walks the typed messages in
 * what was read, shows each one to an {@link Inspector} in place, and emits every complete message of
 * the read as ONE retained slice. A 4-message answer (RowDescription, DataRow, CommandComplete,
 * ReadyForQuery) costs one slice and one write instead of four, and nothing is copied; only a
 * trailing partial message stays behind for the next read.
 *
 * <p>A message too big to wait for (a DataRow holding a 500 MB value, say) is not buffered whole when
 * the inspector allows it ({@link Inspector#mayStream}): from {@value FrameLength#STREAM_AFTER_BYTES} bytes on,
 * what has arrived of it is forwarded with the run and the rest as it comes, so the proxy holds at
 * most one read of it, and a client that reads slowly holds the server back through TCP instead.
 *
 * <p>Messages that may be rewritten or held are framed one by one instead: the client's by
 * {@link ClientMessageDecoder}, the server's during authentication by {@link PgFrameDecoders#typed}.
 */
public final class MessageRunDecoder extends ByteToMessageDecoder {

    /** Sees each complete message before it is forwarded; must not move the buffer's indexes. */
    @FunctionalInterface
    public interface Inspector {
        /**
         * @param buf the buffer holding the message
         * @param index where its type byte is
         * @param length its length field (the body is {@code length - 4} bytes after the field)
         * @return null to forward the message as it is (the common case), or what to forward in its
         *     place; the decoder takes ownership of the replacement
         */
        ByteBuf message(byte type, ByteBuf buf, int index, int length);

        /**
         * Whether a message of this type may be forwarded in parts before it has all arrived. The
         * inspector is then not shown it: say yes only for types it has nothing to learn from.
         */
        default boolean mayStream(byte type) {
            return false;
        }
    }

    private static final int HEADER_BYTES = 5;

    private final Inspector inspector;
    private final int maxMessageBytes;
    private final String limitText;
    /** Bytes still to come of a message being streamed: forwarded as they arrive. */
    private int streamRemaining;

    public MessageRunDecoder(Inspector inspector, int maxMessageBytes) {
        this.inspector = inspector;
        this.maxMessageBytes = maxMessageBytes;
        this.limitText = String.valueOf(maxMessageBytes);
    }

    /** Whether part of a streamed message has been forwarded and the rest has not. */
    public boolean midMessage() {
        return streamRemaining > 0;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (streamRemaining > 0) {
            int part = Math.min(streamRemaining, in.readableBytes());
            out.add(in.readRetainedSlice(part));
            streamRemaining -= part;
            if (streamRemaining > 0) {
                return;
            }
        }
        int start = in.readerIndex();
        int end = in.writerIndex();
        int position = start;
        int runStart = start;
        while (end - position >= HEADER_BYTES) {
            int length = in.getInt(position + 1);
            FrameLength.check(in, length, maxMessageBytes, limitText);
            if (end - position - 1 < length) {
                if (length >= FrameLength.STREAM_AFTER_BYTES && inspector.mayStream(in.getByte(position))) {
                    // Forward what has arrived with the run; the rest follows read by read.
                    streamRemaining = 1 + length - (end - position);
                    position = end;
                }
                break;
            }
            ByteBuf replacement = inspector.message(in.getByte(position), in, position, length);
            if (replacement != null) {
                // Rare (a message the proxy answers itself): end the run before it, emit the replacement.
                if (position > runStart) {
                    out.add(in.retainedSlice(runStart, position - runStart));
                }
                out.add(replacement);
                runStart = position + 1 + length;
            }
            position += 1 + length;
        }
        if (position > runStart) {
            out.add(in.retainedSlice(runStart, position - runStart));
        }
        in.readerIndex(position);
    }
}

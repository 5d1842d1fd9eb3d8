package io.memogate.proxy.pg.codec;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.TooLongFrameException;

/** What both directions' relay decoders share about a typed message's length word. */
final class FrameLength {

    /** A message this long need not wait to be whole: it may be relayed in parts if its type allows. */
    static final int STREAM_AFTER_BYTES = 64 * 1024;

    private FrameLength() {}

    /**
     * Fails on a length that cannot hold itself or exceeds {@code limit}. On such a broken stream, what
     * is buffered is dropped first: the connection is closing, and decoding the same bytes again at
     * close would fail again.
     *
     * @param limitText the limit as the error names it, made once per decoder (this runs per message)
     */
    static void check(ByteBuf in, int length, int limit, String limitText) {
        if (length < 4) {
            in.skipBytes(in.readableBytes());
            throw new CorruptedFrameException("message length " + length + " is less than 4");
        }
        if (length > limit) {
            in.skipBytes(in.readableBytes());
            throw new TooLongFrameException("message of " + length + " bytes exceeds " + limitText);
        }
    }
}

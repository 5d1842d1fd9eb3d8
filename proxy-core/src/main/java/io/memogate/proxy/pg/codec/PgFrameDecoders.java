package io.memogate.proxy.pg.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import java.util.List;

/**
 * Framing of the PostgreSQL protocol with Netty's {@link LengthFieldBasedFrameDecoder}: each frame is
 * emitted whole (header included) as a retained slice of the read buffer, so forwarding it copies
 * nothing. The int32 length counts itself, hence the -4 adjustment.
 */
public final class PgFrameDecoders {

    /**
     * PostgreSQL's own limit on a startup packet: MAX_STARTUP_PACKET_LENGTH (pqcomm.h) bytes after the length
     * word, which ProcessStartupPacket does not count.
     */
    public static final int MAX_STARTUP_PACKET_BYTES = 4 + 10_000;

    private PgFrameDecoders() {}

    /** Untyped startup-phase packets: int32 length, then the body. */
    public static StartupFrameDecoder startup() {
        return new StartupFrameDecoder(MAX_STARTUP_PACKET_BYTES);
    }

    /** Typed messages: a type byte, int32 length, then the body. Fails fast on a length over the limit. */
    public static LengthFieldBasedFrameDecoder typed(int maxFrameBytes) {
        return new LengthFieldBasedFrameDecoder(maxFrameBytes, 1, 4, -4, 0, true);
    }

    /**
     * Startup framing that can tell whether bytes follow the packet just decoded: after an SSLRequest
     * the client must wait for the answer, so buffered bytes are plaintext injected ahead of the TLS
     * handshake (CVE-2021-23214) and the connection is refused.
     */
    public static final class StartupFrameDecoder extends LengthFieldBasedFrameDecoder {

        /** The shortest startup packet: its length word and a protocol version or request code. */
        private static final int MIN_STARTUP_PACKET_BYTES = 8;

        private boolean endedMidPacket;

        StartupFrameDecoder(int maxFrameBytes) {
            super(maxFrameBytes, 0, 4, -4, 0, true);
        }

        /**
         * As PostgreSQL (ProcessStartupPacket), a length word under 8 is refused as soon as it is read, not
         * after waiting for a body it cannot describe. A length over the limit fails as soon as it is read too
         * (fail-fast). Either is the session's to answer: PostgreSQL closes without a word.
         */
        @Override
        protected Object decode(ChannelHandlerContext ctx, ByteBuf in) throws Exception {
            if (in.readableBytes() >= 4 && in.getInt(in.readerIndex()) < MIN_STARTUP_PACKET_BYTES) {
                throw new CorruptedFrameException("invalid length of startup packet");
            }
            return super.decode(ctx, in);
        }

        public boolean hasBufferedBytes() {
            return actualReadableBytes() > 0;
        }

        /** Whether the client closed the connection in the middle of a packet (PostgreSQL: "incomplete startup packet"). */
        public boolean endedMidPacket() {
            return endedMidPacket;
        }

        @Override
        protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
            super.decodeLast(ctx, in, out);
            endedMidPacket = in.isReadable();
        }
    }
}

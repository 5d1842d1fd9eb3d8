package io.memogate.proxy.tds.session;

import io.memogate.proxy.tds.codec.TdsPackets;
import io.memogate.proxy.tds.message.LoginResponse;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import java.util.Optional;

/**
 * The server's answer to LOGIN7, gathered as its packets come by, to its end of message, then read: whether it
 * logged the client in, and the packet size its ENVCHANGE agreed. The packets themselves are relayed as they come.
 */
final class LoginAnswer {

    /** The data of the answer's packets so far, or null. */
    private CompositeByteBuf data;

    /**
     * Keeps {@code packet}'s data (the packet is left to be relayed).
     *
     * @return the answer read, once {@code packet} ends it
     */
    Optional<LoginResponse> add(ByteBuf packet, ByteBufAllocator alloc) {
        if (data == null) {
            data = alloc.compositeBuffer(Integer.MAX_VALUE);
        }
        data.addComponent(true, packet.retainedSlice(packet.readerIndex() + TdsPackets.HEADER_BYTES,
                packet.readableBytes() - TdsPackets.HEADER_BYTES));
        if (!TdsPackets.endsMessage(packet)) {
            return Optional.empty();
        }
        try {
            return Optional.of(LoginResponse.read(data));
        } finally {
            release();
        }
    }

    /** Releases what was gathered; the session is closing. */
    void release() {
        if (data != null) {
            data.release();
            data = null;
        }
    }
}

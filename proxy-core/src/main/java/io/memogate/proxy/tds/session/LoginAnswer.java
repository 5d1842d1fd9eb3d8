package io.memogate.proxy.tds.session;

import io.memogate.proxy.tds.codec.TdsPackets;
import io.memogate.proxy.tds.message.LoginResponse;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The server's answer to LOGIN7, held as its packets come by, to its end of message, then read: whether it logged
 * the client in, the packet size its ENVCHANGE agreed, and whether it routes the client elsewhere. The packets are
 * held until then because an answer that routes is not the client's: the proxy follows the routing and relays the
 * routed server's answer instead ({@link Rerouting}).
 */
final class LoginAnswer {

    /** The data of the answer's packets so far, or null. */
    private CompositeByteBuf data;
    /** The answer's packets so far, as they came. */
    private final List<ByteBuf> packets = new ArrayList<>();

    /**
     * Holds {@code packet}.
     *
     * @return the answer read, once {@code packet} ends it; its packets are then {@link #relay relayed} or
     *     {@link #release released}
     * @throws io.memogate.proxy.tds.message.MalformedPacketException when its routing names no reachable server
     */
    Optional<LoginResponse> add(ByteBuf packet, ByteBufAllocator alloc) {
        if (data == null) {
            data = alloc.compositeBuffer(Integer.MAX_VALUE);
        }
        packets.add(packet);
        data.addComponent(true, packet.retainedSlice(packet.readerIndex() + TdsPackets.HEADER_BYTES,
                packet.readableBytes() - TdsPackets.HEADER_BYTES));
        if (!TdsPackets.endsMessage(packet)) {
            return Optional.empty();
        }
        try {
            return Optional.of(LoginResponse.read(data));
        } finally {
            data.release();
            data = null;
        }
    }

    /** Hands the packets held to {@code to}, in order. */
    void relay(Consumer<ByteBuf> to) {
        packets.forEach(to);
        packets.clear();
    }

    /** Releases what was held: the answer is dropped, or the session is closing. */
    void release() {
        if (data != null) {
            data.release();
            data = null;
        }
        packets.forEach(ByteBuf::release);
        packets.clear();
    }
}

package io.memogate.proxy.mysql.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageDecoder;
import java.util.List;

/**
 * Joins a client's packets into whole payloads: a command of 16 MiB or more comes as several packets
 * ({@link MySqlPackets}), and its text is read whole at its admission point. Each frame handed on is the
 * packets of one payload, headers and all, so it is forwarded as it came. A payload over {@code limit}
 * bytes fails with {@link PacketTooLargeException} as soon as its size passes the limit, holding no more
 * than that: the session answers with the server's own error for it and ends.
 */
public final class ClientPackets extends MessageToMessageDecoder<ByteBuf> {

    private final int limit;
    /** The parts of a payload still to be completed, or null. */
    private CompositeByteBuf parts;
    private long partsLength;

    public ClientPackets(int limit) {
        this.limit = limit;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf packet, List<Object> out) {
        int length = MySqlPackets.payloadLength(packet);
        boolean continues = length == MySqlPackets.MAX_PAYLOAD;
        if (parts == null && !continues) {
            if (length > limit) {
                throw new PacketTooLargeException(length, limit);
            }
            out.add(packet.retain());
            return;
        }
        partsLength += length;
        if (partsLength > limit) {
            long joined = partsLength;
            dropParts();
            throw new PacketTooLargeException(joined, limit);
        }
        if (parts == null) {
            parts = ctx.alloc().compositeBuffer(Integer.MAX_VALUE);
        }
        parts.addComponent(true, packet.retain());
        if (!continues) {
            out.add(parts);
            parts = null;
            partsLength = 0;
        }
    }

    private void dropParts() {
        if (parts != null) {
            parts.release();
            parts = null;
        }
        partsLength = 0;
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        dropParts();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        dropParts();
        super.channelInactive(ctx);
    }
}

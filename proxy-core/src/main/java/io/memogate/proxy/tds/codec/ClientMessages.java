package io.memogate.proxy.tds.codec;

import io.memogate.proxy.tds.message.MalformedPacketException;
import io.memogate.proxy.tds.message.PacketType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageDecoder;
import io.netty.handler.codec.TooLongFrameException;
import java.util.List;

/**
 * Joins a client's packets into whole messages ([MS-TDS] 2.2.1, "a message ... consists of one or more packets"):
 * a SQL batch longer than the packet size comes in several, and its text is read whole at its admission point.
 * Each frame handed on is the packets of one message, headers and all, so it is forwarded as it came. A packet
 * of another type inside a message breaks the protocol, except an ATTENTION, which a client may send at any
 * time and is handed on alone (it is one packet, marked end of message: one that is not breaks the protocol). A
 * message over {@code limit} bytes, a single packet included, fails with a {@link TooLongFrameException} as soon
 * as its size passes the limit, holding no more than that.
 */
public final class ClientMessages extends MessageToMessageDecoder<ByteBuf> {

    private final int limit;
    /** The packets of a message still to be completed, or null. */
    private CompositeByteBuf parts;

    public ClientMessages(int limit) {
        this.limit = limit;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf packet, List<Object> out) {
        int type = TdsPackets.type(packet);
        boolean ends = TdsPackets.endsMessage(packet);
        if (type == PacketType.ATTENTION) {
            if (!ends) {
                // A server would join the packets after it into the attention, where the proxy reads them as
                // requests of their own: the two would disagree on where every later message begins.
                dropParts();
                throw new MalformedPacketException("an ATTENTION packet without the end-of-message bit");
            }
            out.add(packet.retain());
            return;
        }
        if (parts != null && TdsPackets.type(parts) != type) {
            int started = TdsPackets.type(parts);
            dropParts();
            throw new MalformedPacketException("a packet of type " + type + " inside a message of type " + started);
        }
        // A single packet may pass the limit too: a packet is up to 65,535 bytes, the limit as low as 1 KiB.
        long joined = (parts == null ? 0L : parts.readableBytes()) + packet.readableBytes();
        if (joined > limit) {
            dropParts();
            throw new TooLongFrameException("a TDS message of at least " + joined + " bytes, over limits."
                    + "maxMessageBytes (" + limit + ")");
        }
        if (parts == null && ends) {
            out.add(packet.retain());
            return;
        }
        if (parts == null) {
            parts = ctx.alloc().compositeBuffer(Integer.MAX_VALUE);
        }
        parts.addComponent(true, packet.retain());
        if (ends) {
            out.add(parts);
            parts = null;
        }
    }

    private void dropParts() {
        if (parts != null) {
            parts.release();
            parts = null;
        }
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

package io.memogate.proxy.tds.tls;

import io.memogate.proxy.tds.codec.TdsPackets;
import io.memogate.proxy.tds.message.MalformedPacketException;
import io.memogate.proxy.tds.message.PacketType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.CombinedChannelDuplexHandler;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.ssl.SslHandler;
import java.util.ArrayList;
import java.util.List;

/**
 * TDS 7.x carries its TLS handshake inside PRELOGIN packets ([MS-TDS] 2.2.6.5 and the state machines of section
 * 3: the handshake's bytes are the data of TDS packets), and only the handshake: once it is over, TLS records run
 * directly on TCP with TDS packets inside them. Put on the connection's side of an {@link SslHandler},
 * this strips the 8-byte PRELOGIN header from what comes in, and sends what the handler flushes as one PRELOGIN
 * message, cut at the default packet size (the only one agreed before LOGIN7): one message per handshake flight,
 * as a peer counts them (mssql-jdbc checks that it never receives more messages than it sent). When the handshake
 * succeeds it leaves the pipeline, handing on what it had buffered either way: whatever a peer sent after its
 * last handshake record is a TLS record already.
 */
public final class PreloginTlsFraming extends CombinedChannelDuplexHandler<PreloginTlsFraming.Unwrap,
        PreloginTlsFraming.Wrap> {

    private final SslHandler tls;

    public PreloginTlsFraming(SslHandler tls) {
        super(new Unwrap(), new Wrap());
        this.tls = tls;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
        super.handlerAdded(ctx);
        // Netty completes the handshake on the event loop; what the handler wrote of its last flight and not yet
        // flushed goes out from Wrap's handlerRemoved.
        tls.handshakeFuture().addListener(done -> {
            if (done.isSuccess() && !ctx.isRemoved()) {
                ctx.pipeline().remove(this);
            }
        });
    }

    /** PRELOGIN packets (or, from an older server, reply packets) in, their data out. */
    static final class Unwrap extends ByteToMessageDecoder {
        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
            if (in.readableBytes() < TdsPackets.HEADER_BYTES) {
                return;
            }
            int type = TdsPackets.type(in);
            int length = TdsPackets.length(in);
            // Older servers answer their handshake in packets of type 4, a reply's, instead of PRELOGIN's 18.
            if (type != PacketType.PRELOGIN && type != PacketType.TABULAR_RESULT) {
                in.skipBytes(in.readableBytes());
                throw new MalformedPacketException("a packet of type " + type + " during the TLS handshake, where only "
                        + "PRELOGIN packets belong");
            }
            if (length < TdsPackets.HEADER_BYTES) {
                in.skipBytes(in.readableBytes());
                throw new CorruptedFrameException("a TDS packet header announcing " + length
                        + " bytes, less than the header's own 8");
            }
            if (in.readableBytes() < length) {
                return;
            }
            out.add(in.retainedSlice(in.readerIndex() + TdsPackets.HEADER_BYTES, length - TdsPackets.HEADER_BYTES));
            in.skipBytes(length);
        }
    }

    /** TLS records in, gathered until a flush, then sent as one PRELOGIN message. */
    static final class Wrap extends ChannelOutboundHandlerAdapter {
        private CompositeByteBuf pending;
        private final List<ChannelPromise> promises = new ArrayList<>();

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            if (!(msg instanceof ByteBuf records)) {
                ctx.write(msg, promise);
                return;
            }
            if (pending == null) {
                pending = ctx.alloc().compositeBuffer(Integer.MAX_VALUE);
            }
            pending.addComponent(true, records);
            if (!promise.isVoid()) {
                promises.add(promise);
            }
        }

        @Override
        public void flush(ChannelHandlerContext ctx) {
            writePending(ctx);
            ctx.flush();
        }

        private void writePending(ChannelHandlerContext ctx) {
            if (pending == null) {
                return;
            }
            CompositeByteBuf records = pending;
            List<ChannelPromise> written = List.copyOf(promises);
            pending = null;
            promises.clear();
            if (!records.isReadable()) {
                records.release();
                written.forEach(ChannelPromise::trySuccess);
                return;
            }
            ByteBuf message = TdsPackets.message(ctx.alloc(), PacketType.PRELOGIN, records,
                    TdsPackets.DEFAULT_PACKET_SIZE, 0);
            ctx.write(message).addListener(done -> written.forEach(promise -> {
                if (done.isSuccess()) {
                    promise.trySuccess();
                } else {
                    promise.tryFailure(done.cause());
                }
            }));
        }

        @Override
        public void handlerRemoved(ChannelHandlerContext ctx) {
            if (pending != null) {
                writePending(ctx);
                ctx.flush();
            }
        }
    }
}

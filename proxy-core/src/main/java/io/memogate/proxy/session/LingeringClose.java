package io.memogate.proxy.session;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.timeout.ReadTimeoutHandler;
import io.netty.util.concurrent.Future;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Closes a client connection so that the last thing the proxy wrote to it (a FATAL, say) is read even
 * by a client that is still sending. A socket closed with unread bytes in it is answered by the kernel
 * with a reset, and a client still writing (a driver sending a 100 MB query the proxy refused as too
 * long) then reports only "connection reset" and never reads why. So: flush, end the proxy's side of
 * the connection (TLS close_notify, then FIN), and read and drop what the client still sends until it
 * closes its side, sends nothing for {@link #LINGER_IDLE}, or {@link #LINGER_MAX} has passed; then close.
 * The idle limit, not a fixed time, is what lets a client on a slow link finish its message and read
 * the FATAL; the cap bounds how long a client that keeps trickling bytes holds the socket.
 */
public final class LingeringClose {

    /** How long a client may pause while it goes on sending after the proxy ended the connection. */
    public static final Duration LINGER_IDLE = Duration.ofSeconds(2);
    /** How long a client may go on sending at most. */
    public static final Duration LINGER_MAX = Duration.ofSeconds(30);

    private LingeringClose() {}

    public static void close(Channel client) {
        client.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(flushed -> {
            if (!flushed.isSuccess() || !client.isActive() || !(client instanceof DuplexChannel duplex)) {
                client.close();
                return;
            }
            dropInput(client.pipeline());
            SslHandler tls = client.pipeline().get(SslHandler.class);
            if (tls != null) {
                tls.closeOutbound().addListener(notified -> duplex.shutdownOutput());
            } else {
                duplex.shutdownOutput();
            }
            // first in the pipeline, so that bytes count as input before TLS has made records of them
            client.pipeline().addFirst(new ReadTimeoutHandler(LINGER_IDLE.toMillis(), TimeUnit.MILLISECONDS));
            Future<?> cap = client.eventLoop().schedule(() -> client.close(), LINGER_MAX.toMillis(),
                    TimeUnit.MILLISECONDS);
            client.closeFuture().addListener(closed -> cap.cancel(false)); // or it holds the channel for 30 s
            client.config().setAutoRead(true);
        });
    }

    /** Puts a sink after TLS in place of the session's handlers; what the framer held goes into it. */
    private static void dropInput(ChannelPipeline pipeline) {
        pipeline.addLast(new Sink());
        List<String> names = pipeline.names();
        for (int i = names.size() - 1; i >= 0; i--) { // tail first: a decoder's leftovers then reach the sink only
            ChannelHandler handler = pipeline.get(names.get(i));
            if (handler != null && !(handler instanceof SslHandler) && !(handler instanceof Sink)) {
                pipeline.remove(handler);
            }
        }
    }

    /**
     * Drops everything read, the last handler left: a failure closes the channel. When the client ends its
     * side, Netty closes the channel (no half-closure).
     */
    private static final class Sink extends DroppedInput {
        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}

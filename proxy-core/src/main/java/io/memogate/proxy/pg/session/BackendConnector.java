package io.memogate.proxy.pg.session;

import io.memogate.proxy.config.Durations;
import io.memogate.proxy.config.TcpKeepalive;
import io.memogate.proxy.config.TlsMode;
import io.memogate.proxy.pg.codec.PgFrameDecoders;
import io.memogate.proxy.pg.message.PgWire;
import io.memogate.proxy.pg.message.backend.BackendType;
import io.memogate.proxy.pg.message.frontend.SslRequest;
import io.memogate.proxy.server.Transport;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import java.io.IOException;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Opens a session's backend connection on the client's event loop (both legs on one thread: no locks,
 * no hand-offs), negotiates TLS with the server as libpq does (SSLRequest, then 'S' or 'N'), and
 * leaves the channel framed and handed to the session's backend handler, reads paused.
 */
public final class BackendConnector {

    static final String FIRST_ANSWER = "first-answer";
    static final String FRAMER = "framer";
    static final String HANDLER = "backend";

    /** A DataRow or CopyData from the server may be as large as PostgreSQL allows a value (1 GB) plus headers. */
    public static final int MAX_BACKEND_FRAME_BYTES = Integer.MAX_VALUE - 64;

    private final Transport transport;
    private final int maxBackendFrameBytes;
    /** network.keepalive as this transport's socket options, worked out once for every connect. */
    private final Map<ChannelOption<Integer>, Integer> keepaliveOptions;
    /** Sockets to servers now open, from connect to close, whatever became of them in between. */
    private final AtomicInteger open = new AtomicInteger();

    /** @param keepalive network.keepalive: a server host that vanished is noticed as a client's would be */
    public BackendConnector(Transport transport, int maxBackendFrameBytes, TcpKeepalive keepalive) {
        this.transport = transport;
        this.maxBackendFrameBytes = maxBackendFrameBytes;
        this.keepaliveOptions = transport.keepalive(keepalive);
    }

    /**
     * Completes with the ready channel, or fails with a cause whose message a client can read.
     *
     * @param connectTimeout limits.connectTimeout as the session found it (a reload changes it for new sessions)
     */
    Future<Channel> connect(EventLoop loop, BackendTarget target, ChannelHandler backendHandler,
                            Duration connectTimeout) {
        Promise<Channel> ready = loop.newPromise();
        Bootstrap bootstrap = new Bootstrap()
                .group(loop)
                .channel(transport.channelClassFor(target.unixSocket()))
                .option(ChannelOption.AUTO_READ, false)
                // A failed write shuts the output down instead of closing: what the server sent is still read
                // (BackendHandler#exceptionCaught).
                .option(ChannelOption.AUTO_CLOSE, false)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, connectTimeout.toMillis()))
                .handler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel channel) {
                        // Nothing until the TLS decision: the server's first byte may be the SSL answer.
                    }
                });
        if (target.unixSocket().isEmpty()) {
            // TCP's options only: a Unix socket has neither Nagle's delay nor a peer that can vanish unseen.
            bootstrap.option(ChannelOption.TCP_NODELAY, true).option(ChannelOption.SO_KEEPALIVE, true);
            keepaliveOptions.forEach(bootstrap::option);
        }
        ChannelFuture connected = bootstrap.connect(
                transport.remoteAddress(target.unixSocket(), target.host(), target.port()));
        connected.addListener(future -> {
            if (!future.isSuccess()) {
                ready.tryFailure(future.cause());
                return;
            }
            Channel channel = connected.channel();
            open.incrementAndGet();
            channel.closeFuture().addListener(closed -> open.decrementAndGet());
            Future<?> answerDeadline = answerDeadline(channel, target, ready, connectTimeout);
            if (!target.negotiatesTls()) {
                frame(channel, backendHandler, answerDeadline);
                ready.trySuccess(channel);
            } else {
                channel.pipeline().addLast(new SslAnswerHandler(target, backendHandler, ready, answerDeadline));
                ByteBuf request = channel.alloc().buffer(8);
                SslRequest.INSTANCE.encode(request);
                channel.writeAndFlush(request);
                channel.read();
            }
        });
        return ready;
    }

    /**
     * limits.connectTimeout once more, from the TCP connect to the server's first login message: a server
     * that accepts connections but never answers (a stopped process, or a port whose server waits for the
     * client to speak first) fails the connect, or the login once the connection is ready, where the
     * client would otherwise wait for as long as it is willing to.
     */
    private static Future<?> answerDeadline(Channel channel, BackendTarget target, Promise<Channel> ready,
                                            Duration timeout) {
        String silence = "no answer from the server within " + Durations.format(timeout) + " (limits.connectTimeout)";
        Future<?> deadline = channel.eventLoop().schedule(() -> {
            BackendConnectException overdue = new BackendConnectException(silence, "The server accepted the "
                    + "connection but did not answer: check that " + target.configPath() + ".host and port name a "
                    + "running PostgreSQL server.", null);
            if (ready.tryFailure(overdue)) {
                channel.close();
            } else {
                channel.pipeline().fireExceptionCaught(overdue);
            }
        }, timeout.toNanos(), TimeUnit.NANOSECONDS);
        channel.closeFuture().addListener(closed -> deadline.cancel(false));
        return deadline;
    }

    /** Server connections this connector opened that are not closed yet (a metric). */
    public int openConnections() {
        return open.get();
    }

    private void frame(Channel channel, ChannelHandler backendHandler, Future<?> answerDeadline) {
        channel.pipeline().addLast(FIRST_ANSWER, new FirstAnswerCheck(answerDeadline));
        channel.pipeline().addLast(FRAMER, PgFrameDecoders.typed(maxBackendFrameBytes));
        channel.pipeline().addLast(HANDLER, backendHandler);
    }

    /** Reads the server's one-byte answer to SSLRequest and starts TLS or continues in plain text. */
    private final class SslAnswerHandler extends ChannelInboundHandlerAdapter {

        private final BackendTarget target;
        private final ChannelHandler backendHandler;
        private final Promise<Channel> ready;
        private final Future<?> answerDeadline;

        SslAnswerHandler(BackendTarget target, ChannelHandler backendHandler, Promise<Channel> ready,
                         Future<?> answerDeadline) {
            this.target = target;
            this.backendHandler = backendHandler;
            this.ready = ready;
            this.answerDeadline = answerDeadline;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf answer = (ByteBuf) msg;
            try {
                // Anything after the answer byte would be plaintext injected ahead of the handshake
                // (CVE-2021-23222): refuse it.
                if (answer.readableBytes() != 1) {
                    fail(ctx, "the server sent " + answer.readableBytes() + " bytes in answer to SSLRequest, expected 1",
                            notPostgres());
                    return;
                }
                byte code = answer.readByte();
                ctx.pipeline().remove(this);
                if (code == BackendType.ENCRYPTION_ACCEPTED) {
                    startTls(ctx.channel());
                } else if (code == BackendType.ENCRYPTION_REFUSED && target.tlsMode() == TlsMode.PREFER) {
                    frame(ctx.channel(), backendHandler, answerDeadline);
                    ready.trySuccess(ctx.channel());
                } else if (code == BackendType.ENCRYPTION_REFUSED) {
                    String mode = target.configPath() + ".tls.mode";
                    fail(ctx, "the server does not support TLS, but " + mode + " is "
                            + target.tlsMode().name().toLowerCase(Locale.ROOT).replace('_', '-'),
                            "The server refused TLS, as PostgreSQL does with ssl = off: turn ssl on in the server's "
                                    + "configuration, or set " + mode + " to prefer or disable if this backend may be "
                                    + "reached without TLS.");
                } else {
                    fail(ctx, "unexpected answer to SSLRequest: " + PgWire.printableType(code), notPostgres());
                }
            } finally {
                ReferenceCountUtil.release(answer);
            }
        }

        private void startTls(Channel channel) {
            SslContext context = target.sslContext().orElseThrow();
            SslHandler tls = context.newHandler(channel.alloc(), target.serverName(), target.port());
            channel.pipeline().addFirst("tls", tls);
            // A failed handshake is reported through its future; the exception it also fires ends here.
            channel.pipeline().addLast("tls-failure", new ChannelInboundHandlerAdapter() {
                @Override
                public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                    ready.tryFailure(cause);
                    ctx.close();
                }
            });
            tls.handshakeFuture().addListener(handshake -> {
                if (handshake.isSuccess()) {
                    channel.pipeline().remove("tls-failure");
                    frame(channel, backendHandler, answerDeadline);
                    ready.trySuccess(channel);
                } else {
                    ready.tryFailure(new BackendConnectException("TLS handshake failed: "
                            + ConnectFailure.plainMessage(handshake.cause()), "The server accepted TLS but the "
                            + "handshake failed: check " + target.configPath() + ".tls against the server's certificate"
                            + " (trustedCertificates and serverName, under verify-full).", handshake.cause()));
                    channel.close();
                }
            });
            channel.read();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            ready.tryFailure(new BackendConnectException("the server closed the connection during TLS negotiation",
                    notPostgres(), null));
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ready.tryFailure(cause);
            ctx.close();
        }

        private String notPostgres() {
            return "Check " + target.configPath() + ".host and port: they must name a PostgreSQL server.";
        }

        private void fail(ChannelHandlerContext ctx, String message, String hint) {
            ready.tryFailure(new BackendConnectException(message, hint, null));
            ctx.close();
        }
    }

    /** A connect failure this class diagnosed itself; its message is already fit for a client. */
    static final class BackendConnectException extends IOException {

        private final String hint;

        /** @param hint what the client should check, or null when the caller knows better (see {@link ConnectFailure}) */
        BackendConnectException(String message, String hint, Throwable cause) {
            super(message, cause);
            this.hint = hint;
        }

        String hint() {
            return hint;
        }
    }
}

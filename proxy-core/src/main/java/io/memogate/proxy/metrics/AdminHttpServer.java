package io.memogate.proxy.metrics;

import io.memogate.proxy.server.Transport;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin HTTP endpoint ({@link AdminRequestHandler} has the routes) on one event-loop thread of its
 * own: scrapes and health probes never take a thread from the proxied sessions, and a burst of
 * sessions never delays a health probe into a false DOWN.
 */
public final class AdminHttpServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(AdminHttpServer.class);

    /** Requests are bodiless GETs; anything larger is refused (413) before it is buffered. */
    private static final int MAX_REQUEST_BYTES = 64 * 1024;

    private final EventLoopGroup group;
    private final Channel channel;

    private AdminHttpServer(EventLoopGroup group, Channel channel) {
        this.group = group;
        this.channel = channel;
    }

    /**
     * Binds {@code host:port} (port 0: a free one) and serves until closed.
     *
     * @throws BindException naming the address and the cause when it cannot be bound
     */
    public static AdminHttpServer start(String host, int port, PrometheusMeterRegistry prometheus, HealthCheck health)
            throws BindException, InterruptedException {
        Transport transport = Transport.best();
        EventLoopGroup group = transport.newEventLoopGroup(1);
        AdminRequestHandler handler = new AdminRequestHandler(prometheus, health);
        Channel channel;
        try {
            channel = new ServerBootstrap()
                    .group(group)
                    .channel(transport.serverChannelClass())
                    .childHandler(new ChannelInitializer<>() {
                        @Override
                        protected void initChannel(Channel client) {
                            client.pipeline().addLast("http", new HttpServerCodec());
                            client.pipeline().addLast("aggregator", new HttpObjectAggregator(MAX_REQUEST_BYTES));
                            client.pipeline().addLast("admin", handler);
                        }
                    })
                    .bind(host, port)
                    .sync()
                    .channel();
        } catch (Exception e) { // sync() rethrows the bind's cause, checked or not
            group.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            if (e instanceof InterruptedException interrupted) {
                throw interrupted;
            }
            String address = (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
            BindException bind = new BindException("cannot listen for admin HTTP (admin.http) on " + address + ": "
                    + (e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName()));
            bind.initCause(e);
            throw bind;
        }
        AdminHttpServer server = new AdminHttpServer(group, channel);
        log.info("admin HTTP: metrics on {}, health on {}", server.url("/metrics"), server.url("/health"));
        return server;
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) channel.localAddress();
    }

    /** The bound port (the free one picked for port 0). */
    public int port() {
        return address().getPort();
    }

    /** {@code http://host:port/path} for this server, e.g. for {@code /metrics}. */
    public URI url(String path) {
        String host = address().getAddress().getHostAddress();
        return URI.create("http://" + (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port() + path);
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}

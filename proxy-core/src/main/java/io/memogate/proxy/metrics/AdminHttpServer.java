package io.memogate.proxy.metrics;

import io.memogate.proxy.server.ListenException;
import io.memogate.proxy.server.ServerSockets;
import io.memogate.proxy.server.Transport;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
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
     * @throws ListenException naming admin.http, the address and why when it cannot be bound
     */
    public static AdminHttpServer start(String host, int port, PrometheusMeterRegistry prometheus, HealthCheck health)
            throws InterruptedException {
        Transport transport = Transport.best();
        EventLoopGroup group = transport.newEventLoopGroup(1, "memogate-admin");
        AdminRequestHandler handler = new AdminRequestHandler(prometheus, health);
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(group)
                .channel(transport.serverChannelClass())
                .childHandler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel client) {
                        client.pipeline().addLast("http", new HttpServerCodec());
                        client.pipeline().addLast("aggregator", new HttpObjectAggregator(MAX_REQUEST_BYTES));
                        client.pipeline().addLast("admin", handler);
                    }
                });
        Channel channel;
        try {
            channel = ServerSockets.bind(bootstrap, ListenException.Endpoint.ADMIN_HTTP, "admin.http", host, port);
        } catch (InterruptedException | RuntimeException e) {
            group.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
            throw e;
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
        return URI.create("http://" + ServerSockets.address(address().getAddress().getHostAddress(), port()) + path);
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}

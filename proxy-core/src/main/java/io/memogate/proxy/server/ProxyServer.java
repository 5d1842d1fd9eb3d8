package io.memogate.proxy.server;

import io.memogate.proxy.admission.AdmissionHook;
import io.memogate.proxy.admission.AdmissionSupport;
import io.memogate.proxy.config.BackendConfig;
import io.memogate.proxy.config.ListenerConfig;
import io.memogate.proxy.config.MemogateConfig;
import io.memogate.proxy.pg.codec.PgFrameDecoders;
import io.memogate.proxy.pg.session.BackendConnector;
import io.memogate.proxy.pg.session.BackendTarget;
import io.memogate.proxy.pg.session.CancelForwarder;
import io.memogate.proxy.pg.session.CancelRegistry;
import io.memogate.proxy.pg.session.ClientHandler;
import io.memogate.proxy.pg.session.PgSession;
import io.memogate.proxy.pg.session.SessionServices;
import io.memogate.proxy.tls.TlsContexts;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The proxy's network side: one server socket per listener, sessions on a shared event loop group
 * (one thread per core; each session's two legs on one of them). {@link #close()} is the graceful
 * shutdown: stop accepting, let sessions end on their own for limits.shutdownTimeout, then tell the
 * rest the proxy is going away and close them.
 */
public final class ProxyServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ProxyServer.class);

    private final EventLoopGroup group;
    private final List<Channel> serverChannels;
    private final SessionTracker sessions;
    private final BackendConnector connector;
    private final Duration shutdownTimeout;

    private ProxyServer(EventLoopGroup group, List<Channel> serverChannels, SessionTracker sessions,
            BackendConnector connector, Duration shutdownTimeout) {
        this.group = group;
        this.serverChannels = serverChannels;
        this.sessions = sessions;
        this.connector = connector;
        this.shutdownTimeout = shutdownTimeout;
    }

    public static ProxyServer start(MemogateConfig config, AdmissionHook admission) throws InterruptedException {
        return start(config, admission, AdmissionSupport.DEFAULTS);
    }

    public static ProxyServer start(MemogateConfig config, AdmissionHook admission, AdmissionSupport support)
            throws InterruptedException {
        Transport transport = Transport.best();
        EventLoopGroup group = transport.newEventLoopGroup(Runtime.getRuntime().availableProcessors());
        SessionTracker sessions = new SessionTracker(config.limits().maxClientConnections());
        CancelRegistry cancels = new CancelRegistry();
        Map<String, BackendTarget> targets = targetsOf(config);
        // One for all listeners, so that it counts every server connection.
        BackendConnector connector = new BackendConnector(transport, config.limits().connectTimeout(),
                BackendConnector.MAX_BACKEND_FRAME_BYTES);
        List<Channel> channels = new ArrayList<>();
        try {
            for (ListenerConfig listener : config.listeners()) {
                SessionServices services = new SessionServices(
                        database -> config.backendFor(database).map(backend -> targets.get(backend.name())),
                        connector,
                        new CancelForwarder(transport),
                        admission,
                        support,
                        cancels,
                        listener.tls().map(TlsContexts::forListener),
                        config.limits().maxMessageBytes(),
                        config.limits().maxClientConnections(),
                        sessions);
                Channel channel = new ServerBootstrap()
                        .group(group)
                        .channel(transport.serverChannelClass())
                        .childOption(ChannelOption.AUTO_READ, false)
                        .childOption(ChannelOption.TCP_NODELAY, true)
                        .childHandler(new ChannelInitializer<>() {
                            @Override
                            protected void initChannel(Channel client) {
                                client.pipeline().addLast("framer", PgFrameDecoders.startup());
                                client.pipeline().addLast("session", new ClientHandler(new PgSession(client, services)));
                            }
                        })
                        .bind(listener.host(), listener.port())
                        .sync()
                        .channel();
                channels.add(channel);
                log.info("listening on {} ({}{})", channel.localAddress(), transport.name(),
                        listener.tls().isPresent() ? ", TLS available" : "");
            }
        } catch (RuntimeException | InterruptedException e) {
            channels.forEach(Channel::close);
            group.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            throw e;
        }
        return new ProxyServer(group, channels, sessions, connector, config.limits().shutdownTimeout());
    }

    private static Map<String, BackendTarget> targetsOf(MemogateConfig config) {
        Map<String, BackendTarget> targets = new HashMap<>();
        for (BackendConfig backend : config.backends()) {
            targets.put(backend.name(), new BackendTarget(backend.name(), backend.host(), backend.port(),
                    backend.tls().mode(), TlsContexts.forBackend(backend.tls()),
                    backend.tls().serverName().orElse(backend.host())));
        }
        return Map.copyOf(targets);
    }

    /** The address each listener is bound to, in configuration order (port 0 resolves here). */
    public List<InetSocketAddress> addresses() {
        return serverChannels.stream().map(channel -> (InetSocketAddress) channel.localAddress()).toList();
    }

    public int port() {
        return addresses().getFirst().getPort();
    }

    public int sessionCount() {
        return sessions.count();
    }

    /** Connections to backend servers now open, including any still negotiating TLS. */
    public int serverConnectionCount() {
        return connector.openConnections();
    }

    @Override
    public void close() {
        serverChannels.forEach(channel -> channel.close().syncUninterruptibly());
        int open = sessions.count();
        if (open > 0) {
            log.info("stopped accepting; waiting up to {} for {} sessions to end", shutdownTimeout, open);
        }
        if (!sessions.awaitNone(shutdownTimeout)) {
            log.info("closing {} sessions still open after {}", sessions.count(), shutdownTimeout);
            sessions.shutdownAll();
            sessions.awaitNone(Duration.ofSeconds(5));
        }
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        log.info("stopped");
    }
}

package io.memogate.proxy.server;

import io.memogate.proxy.admin.ClientView;
import io.memogate.proxy.admin.ConnectionsView;
import io.memogate.proxy.admin.ConnectionsView.SessionCommandOutcome;
import io.memogate.proxy.admin.ConsoleService;
import io.memogate.proxy.admission.AdmissionRouting;
import io.memogate.proxy.config.ConfigException;
import io.memogate.proxy.config.Durations;
import io.memogate.proxy.config.ListenerConfig;
import io.memogate.proxy.config.MemogateConfig;
import io.memogate.proxy.config.Protocol;
import io.memogate.proxy.config.TcpKeepalive;
import io.memogate.proxy.session.ListenerSetup;
import io.memogate.proxy.session.OperatorCommand;
import io.memogate.proxy.session.ProtocolWing;
import io.memogate.proxy.session.RecycleCounts;
import io.memogate.proxy.session.WingResources;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The proxy's network side: one server socket per listener, sessions on a shared event loop group
 * (network.eventLoops threads, by default one per core; each session's two legs on one of them), all
 * on the transport network.transport selects. Each client accepted is handed to the {@link ProtocolWing}
 * of its listener's protocol, which sets up its session; the server knows sessions only as
 * {@link io.memogate.proxy.session.TrackedSession}s. {@link #close()} is the graceful shutdown: stop
 * accepting, let sessions end on their own for limits.shutdownTimeout, then tell the rest the proxy is
 * going away and close them.
 *
 * <p>{@link #reconfigure} takes a reloaded configuration: each listener's sessions' setup (routing,
 * backend TLS, limits, the listener's own TLS) is rebuilt by its wing and handed to the sessions accepted
 * from then on, while open sessions keep theirs; the client limit and the shutdown grace apply at once.
 * The sockets stay bound where they are.
 */
public final class ProxyServer implements AutoCloseable, ConnectionsView {

    private static final Logger log = LoggerFactory.getLogger(ProxyServer.class);

    private final Transport transport;
    /** network.keepalive, for both legs of every session. */
    private final TcpKeepalive keepalive;
    private final int eventLoops;
    private final EventLoopGroup group;
    private final SessionTracker sessions;
    private final RecycleCounts recycles = new RecycleCounts();
    /** The wing of each protocol the listeners speak, made once at start. */
    private final Map<Protocol, ProtocolWing> wings;
    private final AdmissionRouting admission;
    /** Set once, in {@link #start}, before any listener's sessions are set up and anything listens. */
    private Optional<ConsoleService> console = Optional.empty();
    private final List<Channel> serverChannels = new ArrayList<>();
    /** One per listener, in configuration order; swapped whole by {@link #reconfigure}. */
    private volatile List<ProtocolWing.ListenerSessions> services;
    private volatile List<ListenerConfig> listeners;
    private volatile Duration shutdownTimeout;

    private ProxyServer(MemogateConfig config, Map<Protocol, ProtocolWing.Factory> wings, AdmissionRouting admission) {
        TransportSelector.Selection selection = TransportSelector.select(config.network().transport(),
                TransportSelector.NativeSupport.NETTY);
        selection.fallback().ifPresent(log::warn);
        this.transport = Transport.of(selection.transport());
        this.keepalive = config.network().keepalive();
        // Before the event loops start: a listener no wing serves stops the start with nothing to stop.
        this.wings = wingsFor(config, wings, new WingResources(transport, keepalive, recycles));
        this.eventLoops = config.network().eventLoops();
        this.group = transport.newEventLoopGroup(eventLoops, "memogate-loop");
        this.sessions = new SessionTracker(config.limits().maxClientConnections());
        this.admission = admission;
        this.listeners = config.listeners();
        this.shutdownTimeout = config.limits().shutdownTimeout();
    }

    /** Without an admin console: the database "memogate" is routed like any other. */
    public static ProxyServer start(MemogateConfig config, Map<Protocol, ProtocolWing.Factory> wings,
                                    AdmissionRouting admission) throws InterruptedException {
        return start(config, wings, admission, null);
    }

    /**
     * Starts listening, each listener's sessions set up by the wing of its protocol, each session using the
     * admission of the server it is routed to, with the admin console {@code console} makes. It is given the
     * server before the server listens, because the console observes the server's sessions and the server
     * routes the console's logins: neither can be built complete without the other. On failure nothing is
     * left bound and the event loops are stopped.
     *
     * @param wings the wings this build of the proxy has, by protocol; a listener whose protocol has none is
     *     a configuration error naming it
     * @throws ListenException when a listener's address cannot be bound
     * @throws io.memogate.proxy.config.ConfigException when a TLS certificate or key cannot be loaded, or a
     *     listener's protocol has no wing
     */
    public static ProxyServer start(MemogateConfig config, Map<Protocol, ProtocolWing.Factory> wings,
                                    AdmissionRouting admission, Function<ProxyServer, ConsoleService> console)
            throws InterruptedException {
        ProxyServer server = new ProxyServer(config, wings, admission);
        try {
            if (console != null) {
                server.console = Optional.of(console.apply(server));
            }
            server.services = server.servicesFor(config);
            server.bind();
        } catch (RuntimeException | InterruptedException e) {
            server.serverChannels.forEach(channel -> channel.close().syncUninterruptibly());
            server.group.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
            throw e;
        }
        return server;
    }

    /**
     * The wing of each protocol the listeners speak, made now; a protocol this build has no wing for is a
     * configuration error naming the listener.
     */
    private static Map<Protocol, ProtocolWing> wingsFor(MemogateConfig config, Map<Protocol, ProtocolWing.Factory> known,
                                                        WingResources resources) {
        Map<Protocol, ProtocolWing> made = new EnumMap<>(Protocol.class);
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < config.listeners().size(); i++) {
            Protocol protocol = config.listeners().get(i).protocol();
            ProtocolWing.Factory factory = known.get(protocol);
            if (factory == null) {
                problems.add("listeners[" + i + "].protocol: Memogate cannot serve " + protocol + " clients yet; "
                        + "it speaks " + known.keySet().stream().map(Protocol::configName).sorted()
                        .collect(Collectors.joining(", ")) + " (the SQL Server wing is planned)");
            } else {
                made.computeIfAbsent(protocol, p -> factory.create(resources));
            }
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(null, problems);
        }
        return made;
    }

    private void bind() throws InterruptedException {
        for (int i = 0; i < listeners.size(); i++) {
            ListenerConfig listener = listeners.get(i);
            int index = i;
            Optional<Path> socket = listener.unixSocket();
            ServerBootstrap bootstrap = new ServerBootstrap()
                    .group(group)
                    .channel(transport.serverChannelClassFor(socket))
                    .childOption(ChannelOption.AUTO_READ, false)
                    .childHandler(new ChannelInitializer<>() {
                        @Override
                        protected void initChannel(Channel client) {
                            // The services in force when the client connects: a reload changes new sessions only.
                            services.get(index).initClient(client);
                        }
                    });
            String setting = "listeners[" + i + "]";
            Channel channel;
            if (socket.isPresent()) {
                channel = ServerSockets.bindUnix(bootstrap, transport, setting, socket.get());
            } else {
                // As PostgreSQL does on its client sockets: a client host that vanishes without a FIN (power
                // loss, a NAT or firewall forgetting the flow) would otherwise keep its session, and the
                // server connection behind it, open for ever.
                bootstrap.childOption(ChannelOption.TCP_NODELAY, true).childOption(ChannelOption.SO_KEEPALIVE, true);
                transport.keepalive(keepalive).forEach(bootstrap::childOption);
                channel = ServerSockets.bind(bootstrap, ListenException.Endpoint.CLIENTS, setting, listener.host(),
                        listener.port());
            }
            serverChannels.add(channel);
            log.info("listening on {} ({}{})", channel.localAddress(), transport.name(),
                    listener.tls().isPresent() ? ", TLS available" : "");
        }
    }

    /**
     * Takes a reloaded configuration for new sessions (routing, TLS, limits) and applies the client limit
     * and shutdown grace at once. Everything is built before anything is swapped, so a certificate that
     * does not load changes nothing.
     *
     * @throws IllegalArgumentException when the listeners' addresses differ: sockets move only on restart
     * @throws io.memogate.proxy.config.ConfigException when a TLS certificate or key cannot be loaded
     */
    public void reconfigure(MemogateConfig next) {
        List<String> bound = listeners.stream().map(ListenerConfig::socket).toList();
        if (!bound.equals(next.listeners().stream().map(ListenerConfig::socket).toList())) {
            throw new IllegalArgumentException("the listeners' addresses or protocols changed from " + bound
                    + "; they change only on restart");
        }
        List<ProtocolWing.ListenerSessions> rebuilt = servicesFor(next);
        listeners = next.listeners();
        services = rebuilt;
        sessions.limit(next.limits().maxClientConnections());
        shutdownTimeout = next.limits().shutdownTimeout();
    }

    private List<ProtocolWing.ListenerSessions> servicesFor(MemogateConfig config) {
        List<ProtocolWing.ListenerSessions> built = new ArrayList<>();
        for (int i = 0; i < config.listeners().size(); i++) {
            ProtocolWing wing = wings.get(config.listeners().get(i).protocol());
            built.add(wing.listener(new ListenerSetup(config, i, admission, console, sessions)));
        }
        return List.copyOf(built);
    }

    /** The address each TCP listener is bound to, in configuration order (port 0 resolves here). */
    public List<InetSocketAddress> addresses() {
        return serverChannels.stream().map(Channel::localAddress).filter(InetSocketAddress.class::isInstance)
                .map(InetSocketAddress.class::cast).toList();
    }

    /** The first TCP listener's port. */
    public int port() {
        return addresses().getFirst().getPort();
    }

    /** How many threads run the sessions' I/O (network.eventLoops). */
    public int eventLoops() {
        return eventLoops;
    }

    /** The socket implementation in use: "io_uring", "epoll" or "nio". */
    public String transportName() {
        return transport.name();
    }

    public int sessionCount() {
        return sessions.count();
    }

    /** The event loops every session runs on, each serving both legs of its sessions. */
    public EventLoopGroup eventLoopGroup() {
        return group;
    }

    /** How often sessions' server connections were replaced since the start. */
    public RecycleCounts recycles() {
        return recycles;
    }

    @Override
    public long serverRecycleCount() {
        return recycles.recycledCount();
    }

    /** Connections to backend servers now open, including any still negotiating TLS. */
    @Override
    public int serverConnectionCount() {
        return wings.values().stream().mapToInt(ProtocolWing::serverConnectionCount).sum();
    }

    @Override
    public CompletionStage<List<ClientView>> clients() {
        return sessions.clients();
    }

    @Override
    public CompletionStage<SessionCommandOutcome> cancel(int serverPid, Optional<String> backend, String by) {
        return sessions.operator(new OperatorCommand(OperatorCommand.Action.CANCEL, serverPid, backend, by));
    }

    @Override
    public CompletionStage<SessionCommandOutcome> terminate(int serverPid, Optional<String> backend, String by) {
        return sessions.operator(new OperatorCommand(OperatorCommand.Action.KILL, serverPid, backend, by));
    }

    @Override
    public void close() {
        serverChannels.forEach(channel -> channel.close().syncUninterruptibly());
        Duration shutdownTimeout = this.shutdownTimeout;
        int open = sessions.count();
        if (open > 0) {
            log.info("stopped accepting; waiting up to {} for {} to end", Durations.format(shutdownTimeout),
                    sessionCount(open));
        }
        if (!sessions.awaitNone(shutdownTimeout)) {
            log.info("closing {} still open after {}", sessionCount(sessions.count()), Durations.format(shutdownTimeout));
            sessions.shutdownAll();
            sessions.awaitNone(Duration.ofSeconds(5));
        }
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        log.info("stopped");
    }

    private static String sessionCount(int n) {
        return n == 1 ? "1 session" : n + " sessions";
    }
}

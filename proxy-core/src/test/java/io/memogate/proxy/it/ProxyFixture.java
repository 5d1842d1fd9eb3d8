package io.memogate.proxy.it;

import io.memogate.proxy.admission.AdmissionHook;
import io.memogate.proxy.admission.AdmissionRouting;
import io.memogate.proxy.admission.AdmissionSupport;
import io.memogate.proxy.admission.ImmediateAdmission;
import io.memogate.proxy.cli.Wings;
import io.memogate.proxy.config.BackendConfig;
import io.memogate.proxy.config.BackendTlsConfig;
import io.memogate.proxy.config.LimitsConfig;
import io.memogate.proxy.config.ListenerConfig;
import io.memogate.proxy.config.MemogateConfig;
import io.memogate.proxy.config.NetworkConfig;
import io.memogate.proxy.config.NetworkTransport;
import io.memogate.proxy.config.RecycleConfig;
import io.memogate.proxy.config.ServerTlsConfig;
import io.memogate.proxy.config.TcpKeepalive;
import io.memogate.proxy.config.TlsMode;
import io.memogate.proxy.postgres.PostgresServer;
import io.memogate.proxy.server.ProxyServer;
import io.memogate.proxy.testing.Await;
import io.netty.util.concurrent.EventExecutor;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A proxy started for one test, in front of one backend, on an ephemeral port: the real
 * {@link ProxyServer} with a configuration built in code, closed by the test.
 */
public final class ProxyFixture implements AutoCloseable {

    private final ProxyServer server;

    private ProxyFixture(ProxyServer server) {
        this.server = server;
    }

    public static Builder to(String host, int port) {
        return new Builder(host, port);
    }

    public int port() {
        return server.port();
    }

    public ProxyServer server() {
        return server;
    }

    /**
     * Waits until the proxy holds this many sessions: a session ends on the proxy's event loop a
     * moment after its client saw the end, so tests wait for it instead of reading the count at once.
     */
    public int awaitSessionCount(int expected) throws InterruptedException {
        Await.holdsWithin(Duration.ofSeconds(10), () -> server.sessionCount() == expected);
        return server.sessionCount();
    }

    /** Waits until a session of this proxy is in {@code state}, as SHOW CLIENTS says it ("waiting for admission"). */
    public void awaitSessionIn(String state) throws InterruptedException {
        Await.until("a session of the proxy is " + state, () -> server.clients().toCompletableFuture()
                .get(10, TimeUnit.SECONDS).stream().anyMatch(client -> client.state().equals(state)));
    }

    /**
     * Returns once each of the proxy's event loops has run every timer due within {@code delay} from now, so a
     * timer the proxy set before has fired or been cancelled: what a test checking that a timer did no harm
     * waits for. A loop runs its timers in deadline order.
     */
    public void awaitTimersDue(Duration delay) throws InterruptedException {
        List<CompletableFuture<Void>> probes = new ArrayList<>();
        for (EventExecutor loop : server.eventLoopGroup()) {
            CompletableFuture<Void> probe = new CompletableFuture<>();
            // Set from the loop, after the task it runs now, which may be setting a timer of its own.
            loop.execute(() -> loop.schedule(() -> probe.complete(null), delay.toNanos(), TimeUnit.NANOSECONDS));
            probes.add(probe);
        }
        CompletableFuture<Void> all = CompletableFuture.allOf(probes.toArray(CompletableFuture[]::new));
        Await.until("every event loop ran its timers due within " + delay.toMillis() + " ms", delay.plus(Await.DEFAULT),
                all::isDone);
    }

    public String jdbcUrl(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port() + "/" + database;
    }

    /** A pgjdbc connection through the proxy; extra properties are pgjdbc connection properties. */
    public Connection connect(String database, String user, String password, String... properties) throws SQLException {
        Properties props = new Properties();
        props.setProperty("user", user);
        if (password != null) {
            props.setProperty("password", password);
        }
        props.setProperty("sslmode", "disable");
        props.setProperty("connectTimeout", "10");
        props.setProperty("socketTimeout", "60");
        for (int i = 0; i + 1 < properties.length; i += 2) {
            props.setProperty(properties[i], properties[i + 1]);
        }
        return DriverManager.getConnection(jdbcUrl(database), props);
    }

    @Override
    public void close() {
        server.close();
    }

    public static final class Builder {
        private final String host;
        private final int port;
        private BackendTlsConfig backendTlsConfig = BackendTlsConfig.of(TlsMode.DISABLE);
        private Optional<ServerTlsConfig> listenerTls = Optional.empty();
        private final List<ListenerConfig> unixListeners = new ArrayList<>();
        private List<String> databases = List.of();
        private boolean isDefault = true;
        private AdmissionHook admission = new ImmediateAdmission();
        private AdmissionSupport support = PostgresServer.defaultSupport();
        private int maxMessageBytes = LimitsConfig.DEFAULTS.maxMessageBytes();
        private int maxClientConnections = LimitsConfig.DEFAULTS.maxClientConnections();
        private Duration shutdownTimeout = Duration.ofSeconds(5);
        private Duration connectTimeout = Duration.ofSeconds(5);
        private Duration loginTimeout = LimitsConfig.DEFAULT_LOGIN_TIMEOUT;
        private RecycleConfig recycle = RecycleConfig.DEFAULTS;
        private NetworkConfig network = NetworkConfig.DEFAULTS;

        private Builder(String host, int port) {
            this.host = host;
            this.port = port;
        }

        public Builder backendTls(TlsMode mode) {
            this.backendTlsConfig = BackendTlsConfig.of(mode);
            return this;
        }

        /** verify-full towards the backend, trusting this certificate bundle and checking this host name. */
        public Builder backendVerifyFull(java.nio.file.Path trustedCertificates, String serverName) {
            this.backendTlsConfig = new BackendTlsConfig(TlsMode.VERIFY_FULL, Optional.of(trustedCertificates),
                    Optional.of(serverName));
            return this;
        }

        public Builder listenerTls(ServerTlsConfig tls) {
            this.listenerTls = Optional.of(tls);
            return this;
        }

        /** Route only these databases (no default backend). */
        public Builder onlyDatabases(String... names) {
            this.databases = List.of(names);
            this.isDefault = false;
            return this;
        }

        public Builder admission(AdmissionHook hook) {
            this.admission = hook;
            return this;
        }

        public Builder admissionSupport(AdmissionSupport support) {
            this.support = support;
            return this;
        }

        public Builder maxMessageBytes(int bytes) {
            this.maxMessageBytes = bytes;
            return this;
        }

        public Builder maxClientConnections(int count) {
            this.maxClientConnections = count;
            return this;
        }

        public Builder connectTimeout(Duration timeout) {
            this.connectTimeout = timeout;
            return this;
        }

        public Builder loginTimeout(Duration timeout) {
            this.loginTimeout = timeout;
            return this;
        }

        public Builder shutdownTimeout(Duration timeout) {
            this.shutdownTimeout = timeout;
            return this;
        }

        public Builder recycle(RecycleConfig recycle) {
            this.recycle = recycle;
            return this;
        }

        public Builder transport(NetworkTransport transport) {
            this.network = network.withTransport(transport);
            return this;
        }

        /** A second listener, on the Unix socket {@code directory/.s.PGSQL.port}, after the TCP one. */
        public Builder unixListener(java.nio.file.Path directory, int port) {
            unixListeners.add(ListenerConfig.of(directory.toString(), port));
            return this;
        }

        public Builder keepalive(TcpKeepalive keepalive) {
            this.network = network.withKeepalive(keepalive);
            return this;
        }

        public ProxyFixture start() throws InterruptedException {
            BackendConfig backend = new BackendConfig("test", host, port, databases, isDefault, backendTlsConfig);
            LimitsConfig limits = new LimitsConfig(maxMessageBytes, connectTimeout, shutdownTimeout,
                    maxClientConnections, loginTimeout);
            List<ListenerConfig> listeners = new ArrayList<>();
            listeners.add(new ListenerConfig("127.0.0.1", 0, listenerTls));
            listeners.addAll(unixListeners);
            MemogateConfig config = new MemogateConfig(listeners, List.of(backend), limits)
                    .withRecycle(recycle)
                    .withNetwork(network);
            return new ProxyFixture(ProxyServer.start(config, Wings.BUILT_IN, AdmissionRouting.uniform(admission, support)));
        }
    }
}

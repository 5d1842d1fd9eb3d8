package io.memogate.bench.storm;

import io.memogate.bench.process.PrivateRedis;
import io.memogate.bench.storm.load.Endpoint;
import io.memogate.bench.storm.load.Mode;
import io.memogate.bench.storm.report.GatewayFigures;
import io.memogate.broker.BrokerSettings;
import io.memogate.broker.redis.FleetSettings;
import io.memogate.broker.redis.RedisGateways;
import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.broker.gateway.Sizes;
import io.memogate.proxy.admission.AdmissionControl;
import io.memogate.proxy.admission.AdmissionRouting;
import io.memogate.proxy.admission.DegradePolicy;
import io.memogate.proxy.admission.ImmediateAdmission;
import io.memogate.proxy.cli.Wings;
import io.memogate.proxy.config.AuthFile;
import io.memogate.proxy.config.BackendConfig;
import io.memogate.proxy.config.BackendTlsConfig;
import io.memogate.proxy.config.LimitsConfig;
import io.memogate.proxy.config.ListenerConfig;
import io.memogate.proxy.config.MemogateConfig;
import io.memogate.proxy.config.RecycleConfig;
import io.memogate.proxy.config.TlsMode;
import io.memogate.proxy.postgres.PostgresServer;
import io.memogate.proxy.postgres.embedded.DemoSchema;
import io.memogate.proxy.server.ProxyServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What the clients of one cell connect to: the server itself, or Memogate started in this JVM in front
 * of it, with every statement admitted at once (gateways off) or with admission control as `memogate
 * run` builds it (gateways on): the paper's three gateways sized for the server's CPUs and a broker
 * co-located with the server, so it measures each backend's private memory from /proc, assuming a host
 * of the emulated size; gateways-degrade adds admission.degrade for every session.
 *
 * <p>With several instances the clients spread evenly over them. With gateways on each instance keeps its
 * own gateways and broker, as proxies without a fleet do; the fleet mode gives them one set of gateways
 * through a private redis-server, and one broker elected among them, as {@code fleet.redis} does.
 */
final class StormTarget implements AutoCloseable {

    /** The server's CPUs: this machine's, since the server runs on it. */
    private static final int CPUS = Runtime.getRuntime().availableProcessors();
    /** Clients are told where they queue after this long (a NOTICE; the storm's clients ignore it). */
    private static final Duration WAIT_NOTICE = Duration.ofSeconds(5);
    /**
     * gateways-degrade: how long a report that fits may wait for its gateways before it runs degraded. Short next to
     * the storm's queueing (reports wait tens of seconds for LARGE under gateways-on), long next to a report's plan.
     */
    static final Duration DEGRADE_AFTER = Duration.ofSeconds(5);
    /** gateways-degrade: every session's statements may be degraded. */
    private static final DegradePolicy DEGRADE = new DegradePolicy(true, Set.of(), Set.of(), Optional.of(DEGRADE_AFTER));
    /** The fleet's name in its private Redis. */
    private static final String FLEET = "storm";

    private final Mode mode;
    private final List<Endpoint> endpoints;
    private final Parts parts;
    private final GatewayCounter counter;
    private final String description;

    private StormTarget(Mode mode, List<Endpoint> endpoints, Parts parts, GatewayCounter counter, String description) {
        this.mode = mode;
        this.endpoints = List.copyOf(endpoints);
        this.parts = parts;
        this.counter = counter;
        this.description = description;
    }

    static StormTarget start(Mode mode, StormServer server, StormPlan plan) throws Exception {
        Endpoint direct = server.endpoint();
        GatewayCounter counter = new GatewayCounter();
        if (mode == Mode.DIRECT) {
            return new StormTarget(mode, List.of(direct), new Parts(), counter,
                    "PostgreSQL on " + direct.host() + ":" + direct.port());
        }
        Parts parts = new Parts();
        try {
            if (mode == Mode.FLEET) {
                parts.redis = Optional.of(PrivateRedis.start());
            }
            GatewaySettings gateways = GatewaySettings.defaults(CPUS);
            RecycleConfig recycle = recycling(plan, direct);
            for (int i = 0; i < plan.instances(); i++) {
                parts.proxies.add(mode == Mode.GATEWAYS_OFF ? ProxyServer.start(config(server),
                                Wings.BUILT_IN, AdmissionRouting.uniform(new ImmediateAdmission(),
                                PostgresServer.defaultSupport()))
                        : gated(server, plan, gateways, recycle, counter, parts, mode == Mode.GATEWAYS_DEGRADE));
            }
            List<Endpoint> endpoints = parts.proxies.stream().map(proxy -> endpointOf(direct, proxy)).toList();
            return new StormTarget(mode, endpoints, parts, counter,
                    describe(mode, plan, parts, gateways, recycle));
        } catch (Exception | Error e) {
            parts.close();
            throw e;
        }
    }

    private static MemogateConfig config(StormServer server) {
        BackendConfig backend = new BackendConfig("storm", server.host(), server.port(), List.of(), true,
                BackendTlsConfig.of(TlsMode.DISABLE));
        // Sessions are over when the cell ends, so no grace period is needed.
        LimitsConfig limits = LimitsConfig.DEFAULTS.withShutdownTimeout(Duration.ofSeconds(2));
        return new MemogateConfig(List.of(new ListenerConfig("127.0.0.1", 0, Optional.empty())), List.of(backend),
                limits);
    }

    /**
     * One instance with admission control: its own gateways, or the fleet's in {@code parts.redis}.
     *
     * @param degrade admission.degrade for every session ({@link #DEGRADE})
     */
    private static ProxyServer gated(StormServer server, StormPlan plan, GatewaySettings gateways,
                                     RecycleConfig recycle, GatewayCounter counter, Parts parts, boolean degrade)
            throws Exception {
        BrokerSettings broker = BrokerSettings.builder(server.monitorJdbcUrl(), DemoSchema.MONITOR,
                        DemoSchema.MONITOR_PASSWORD)
                .hostMemoryBytes(OptionalLong.of(plan.hostMemoryBytes()))
                .coLocated(true)
                .staticTargetBytes(plan.staticTargetBytes())
                .build();
        AdmissionControl.GatewaysFactory where = parts.redis.<AdmissionControl.GatewaysFactory>map(redis ->
                (settings, target, timer, listener, retention) -> new RedisGateways(
                        new FleetSettings(redis.uri(), FLEET), AdmissionControl.ONLY_SERVER, settings, target, timer,
                        listener, retention))
                .orElse(AdmissionControl.GatewaysFactory.LOCAL);
        AdmissionControl control = AdmissionControl.builder(AdmissionControl.ONLY_SERVER, PostgresServer.KIND, gateways)
                .staticTargetBytes(plan.staticTargetBytes()).broker(Optional.of(broker))
                .waitNotice(() -> WAIT_NOTICE).gatewayListener(counter).gateways(where)
                .degrade(() -> degrade ? DEGRADE : DegradePolicy.OFF).build();
        parts.admissions.add(control);
        control.start();
        return ProxyServer.start(config(server).withRecycle(recycle), Wings.BUILT_IN,
                AdmissionRouting.uniform(control.hook(), control.support()));
    }

    private static String describe(Mode mode, StormPlan plan, Parts parts, GatewaySettings gateways,
                                   RecycleConfig recycle) {
        String ports = parts.proxies.stream().map(p -> String.valueOf(p.port())).collect(Collectors.joining(", "));
        String where = plan.instances() == 1 ? "Memogate in this JVM on 127.0.0.1:" + ports
                : plan.instances() + " Memogate instances in this JVM on 127.0.0.1:" + ports
                        + ", the clients spread evenly over them";
        if (mode == Mode.GATEWAYS_OFF) {
            return where + ", every statement admitted at once";
        }
        String degrading = mode == Mode.GATEWAYS_DEGRADE ? ", admission.degrade for every session (after "
                + DEGRADE_AFTER.toSeconds() + " s)" : "";
        String shared = parts.redis.map(redis -> ", sharing one set of gateways " + describe(gateways)
                + " through redis-server on 127.0.0.1:" + redis.port() + ", one broker elected among them")
                .orElse((plan.instances() == 1 ? ", gateways " : ", each with its own gateways ") + describe(gateways)
                        + (plan.instances() == 1 ? "" : " and broker"));
        return where + shared + degrading + ", broker co-located (RssAnon per backend from /proc), host memory "
                + Sizes.bytes(plan.hostMemoryBytes()) + ", static target " + Sizes.bytes(plan.staticTargetBytes())
                + ", " + (recycle.enabled() ? "server connections recycled above "
                + Sizes.bytes(recycle.retainedAboveBytes()) + " (auth file with the benchmark user's password)"
                : "no recycling");
    }

    /**
     * As a DBA would configure it: recycle.retainedAbove, and an auth file with the user's password so
     * that the proxy can repeat the SCRAM login. Written to the report directory; it holds only the
     * demo's well-known password.
     */
    private static RecycleConfig recycling(StormPlan plan, Endpoint direct) throws IOException {
        if (plan.recycleAboveBytes() == 0) {
            return RecycleConfig.DEFAULTS.withRetainedAbove(0);
        }
        Files.createDirectories(plan.outputDirectory());
        Path file = plan.outputDirectory().resolve("userlist.txt");
        Files.writeString(file, "\"" + direct.user() + "\" \"" + direct.password() + "\"\n");
        return new RecycleConfig(plan.recycleAboveBytes(), Optional.of(file), AuthFile.read(file));
    }

    private static Endpoint endpointOf(Endpoint direct, ProxyServer proxy) {
        return new Endpoint("127.0.0.1", proxy.port(), direct.database(), direct.user(), direct.password());
    }

    private static String describe(GatewaySettings settings) {
        return "defaults for " + CPUS + " CPUs (SMALL " + settings.small().limit() + ", MEDIUM "
                + settings.medium().limit() + ", LARGE " + settings.large().limit() + " at once; timeouts "
                + settings.small().timeout().toSeconds() + "/" + settings.medium().timeout().toSeconds() + "/"
                + settings.large().timeout().toSeconds() + " s)";
    }

    Mode mode() {
        return mode;
    }

    /** Client {@code id} (from 1) connects to instance (id - 1) mod N, so the clients spread evenly. */
    Endpoint endpoint(int id) {
        return endpoints.get((id - 1) % endpoints.size());
    }

    String description() {
        return description;
    }

    /** What the gateways decided and how often the proxy recycled a server connection (all zero without them). */
    GatewayFigures gatewayCounts() {
        return counter.counts().withRecycled(parts.proxies.stream().mapToLong(p -> p.recycles().recycledCount()).sum())
                .withDegraded(parts.admissions.stream().mapToLong(a -> a.degradeCounts().total()).sum());
    }

    @Override
    public void close() throws IOException {
        parts.close();
    }

    /** What a cell started, closed in an order that lets each part end cleanly, also after a failed start. */
    private static final class Parts {
        private final List<ProxyServer> proxies = new ArrayList<>();
        private final List<AdmissionControl> admissions = new ArrayList<>();
        private Optional<PrivateRedis> redis = Optional.empty();

        /** The proxies first, so their sessions end before the brokers and gateways go; Redis last. */
        void close() throws IOException {
            try {
                proxies.forEach(ProxyServer::close);
            } finally {
                try {
                    admissions.forEach(AdmissionControl::close);
                } finally {
                    if (redis.isPresent()) {
                        redis.get().close();
                    }
                }
            }
        }
    }
}

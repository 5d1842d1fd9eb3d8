package io.memogate.bench.storm;

import io.memogate.bench.storm.load.Endpoint;
import io.memogate.bench.storm.load.Mode;
import io.memogate.bench.storm.report.GatewayFigures;
import io.memogate.broker.BrokerSettings;
import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.broker.gateway.Sizes;
import io.memogate.proxy.admission.AdmissionControl;
import io.memogate.proxy.admission.AdmissionRouting;
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
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What the clients of one cell connect to: the server itself, or Memogate started in this JVM in front
 * of it, with every statement admitted at once (gateways off) or with admission control as `memogate
 * run` builds it (gateways on): the paper's three gateways sized for the server's CPUs and a broker
 * co-located with the server, so it measures each backend's private memory from /proc, assuming a host
 * of the emulated size.
 */
final class StormTarget implements AutoCloseable {

    /** The server's CPUs: this machine's, since the server runs on it. */
    private static final int CPUS = Runtime.getRuntime().availableProcessors();
    /** Clients are told where they queue after this long (a NOTICE; the storm's clients ignore it). */
    private static final Duration WAIT_NOTICE = Duration.ofSeconds(5);

    private final Mode mode;
    private final Endpoint endpoint;
    private final Optional<ProxyServer> proxy;
    private final Optional<AdmissionControl> admission;
    private final GatewayCounter counter;
    private final String description;

    private StormTarget(Mode mode, Endpoint endpoint, Optional<ProxyServer> proxy, Optional<AdmissionControl> admission,
                        GatewayCounter counter, String description) {
        this.mode = mode;
        this.endpoint = endpoint;
        this.proxy = proxy;
        this.admission = admission;
        this.counter = counter;
        this.description = description;
    }

    static StormTarget start(Mode mode, StormServer server, StormPlan plan) throws Exception {
        Endpoint direct = server.endpoint();
        GatewayCounter counter = new GatewayCounter();
        if (mode == Mode.DIRECT) {
            return new StormTarget(mode, direct, Optional.empty(), Optional.empty(), counter,
                    "PostgreSQL on " + direct.host() + ":" + direct.port());
        }
        BackendConfig backend = new BackendConfig("storm", server.host(), server.port(), List.of(), true,
                BackendTlsConfig.of(TlsMode.DISABLE));
        // Sessions are over when the cell ends, so no grace period is needed.
        LimitsConfig limits = LimitsConfig.DEFAULTS.withShutdownTimeout(Duration.ofSeconds(2));
        MemogateConfig config = new MemogateConfig(List.of(new ListenerConfig("127.0.0.1", 0, Optional.empty())),
                List.of(backend), limits);
        if (mode == Mode.GATEWAYS_OFF) {
            ProxyServer proxy = ProxyServer.start(config, Wings.BUILT_IN,
                    AdmissionRouting.uniform(new ImmediateAdmission(), PostgresServer.defaultSupport()));
            return new StormTarget(mode, endpointOf(direct, proxy), Optional.of(proxy), Optional.empty(), counter,
                    "Memogate in this JVM on 127.0.0.1:" + proxy.port() + ", every statement admitted at once");
        }
        BrokerSettings broker = BrokerSettings.builder(server.monitorJdbcUrl(), DemoSchema.MONITOR,
                        DemoSchema.MONITOR_PASSWORD)
                .hostMemoryBytes(OptionalLong.of(plan.hostMemoryBytes()))
                .coLocated(true)
                .staticTargetBytes(plan.staticTargetBytes())
                .build();
        GatewaySettings gateways = GatewaySettings.defaults(CPUS);
        AdmissionControl control = AdmissionControl.builder(AdmissionControl.ONLY_SERVER, PostgresServer.KIND, gateways)
                .staticTargetBytes(plan.staticTargetBytes()).broker(Optional.of(broker))
                .waitNotice(() -> WAIT_NOTICE).gatewayListener(counter).build();
        RecycleConfig recycle = recycling(plan, direct);
        ProxyServer proxy;
        try {
            control.start();
            proxy = ProxyServer.start(config.withRecycle(recycle), Wings.BUILT_IN,
                    AdmissionRouting.uniform(control.hook(), control.support()));
        } catch (Exception | Error e) {
            control.close();
            throw e;
        }
        return new StormTarget(mode, endpointOf(direct, proxy), Optional.of(proxy), Optional.of(control), counter,
                "Memogate in this JVM on 127.0.0.1:" + proxy.port() + ", gateways " + describe(gateways)
                        + ", broker co-located (RssAnon per backend from /proc), host memory "
                        + Sizes.bytes(plan.hostMemoryBytes()) + ", static target "
                        + Sizes.bytes(plan.staticTargetBytes()) + ", " + (recycle.enabled()
                        ? "server connections recycled above " + Sizes.bytes(recycle.retainedAboveBytes())
                                + " (auth file with the benchmark user's password)"
                        : "no recycling"));
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

    Endpoint endpoint() {
        return endpoint;
    }

    String description() {
        return description;
    }

    /** What the gateways decided and how often the proxy recycled a server connection (all zero without them). */
    GatewayFigures gatewayCounts() {
        return counter.counts().withRecycled(proxy.map(p -> p.recycles().recycledCount()).orElse(0L));
    }

    /** The proxy first, so its sessions end before the broker and gateways go. */
    @Override
    public void close() {
        try {
            proxy.ifPresent(ProxyServer::close);
        } finally {
            admission.ifPresent(AdmissionControl::close);
        }
    }
}

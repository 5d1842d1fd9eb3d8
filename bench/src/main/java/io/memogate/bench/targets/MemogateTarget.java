package io.memogate.bench.targets;

import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.proxy.admission.AdmissionControl;
import io.memogate.proxy.admission.AdmissionRouting;
import io.memogate.proxy.admission.ImmediateAdmission;
import io.memogate.proxy.cli.Wings;
import io.memogate.proxy.config.BackendConfig;
import io.memogate.proxy.config.BackendTlsConfig;
import io.memogate.proxy.config.LimitsConfig;
import io.memogate.proxy.config.ListenerConfig;
import io.memogate.proxy.config.MemogateConfig;
import io.memogate.proxy.config.NetworkConfig;
import io.memogate.proxy.config.TlsMode;
import io.memogate.proxy.postgres.PostgresServer;
import io.memogate.proxy.server.ProxyServer;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The proxy, started in this JVM as `memogate run` starts it, on a free port, without TLS on either
 * leg (the other targets use none either), in one of two admission set-ups that differ in nothing else
 * (and, without the gateways, on a chosen transport: {@link TargetKind#MEMOGATE_EPOLL},
 * {@link TargetKind#MEMOGATE_IO_URING}, with one event loop: {@link TargetKind#MEMOGATE_ONE_LOOP}, and to
 * the server's Unix socket: {@link TargetKind#MEMOGATE_UNIX}):
 *
 * <ul>
 *   <li>{@link TargetKind#MEMOGATE}: every statement admitted at once ({@link ImmediateAdmission});
 *   <li>{@link TargetKind#MEMOGATE_GATED}: the real admission path ({@link AdmissionControl}: the
 *       estimator's lexer on every statement, the gateways for those it does not let bypass), with the
 *       default gateway settings for this machine's CPUs, a static 256 MiB compile-memory target and no
 *       broker. pgbench -S names one relation, so its statements bypass the gateways: the ratio of the
 *       two measures what the estimator costs a statement that is never held.
 * </ul>
 *
 * The harness shares the JVM but only waits on pgbench while a run is measured. When both kinds run,
 * they share the JVM's JIT profiles too: the session's call to its admission hook sees two
 * implementations, in either proxy.
 */
public final class MemogateTarget implements Target {

    static final long GATED_STATIC_TARGET_BYTES = 256L << 20;

    private final TargetKind kind;
    private final ProxyServer server;
    /** Empty for {@link TargetKind#MEMOGATE}. */
    private final Optional<AdmissionControl> control;

    private MemogateTarget(TargetKind kind, ProxyServer server, Optional<AdmissionControl> control) {
        this.kind = kind;
        this.server = server;
        this.control = control;
    }

    /** Every statement admitted at once, with the default network section. */
    public static MemogateTarget start(Backend backend) throws InterruptedException {
        return start(TargetKind.MEMOGATE, backend, NetworkConfig.DEFAULTS);
    }

    /** Every statement admitted at once, on {@code network} (the caller has checked its transport works here). */
    public static MemogateTarget start(TargetKind kind, Backend backend, NetworkConfig network)
            throws InterruptedException {
        MemogateConfig config = config(backend).withNetwork(network);
        return new MemogateTarget(kind, ProxyServer.start(config, Wings.BUILT_IN,
                AdmissionRouting.uniform(new ImmediateAdmission(), PostgresServer.defaultSupport())), Optional.empty());
    }

    /** Statements admitted through the estimator and the gateways. */
    public static MemogateTarget startGated(Backend backend) throws InterruptedException {
        AdmissionControl control = AdmissionControl.builder(AdmissionControl.ONLY_SERVER, PostgresServer.KIND,
                GatewaySettings.defaults(Runtime.getRuntime().availableProcessors()))
                .staticTargetBytes(GATED_STATIC_TARGET_BYTES).build();
        try {
            ProxyServer server = ProxyServer.start(config(backend), Wings.BUILT_IN,
                    AdmissionRouting.uniform(control.hook(), control.support()));
            return new MemogateTarget(TargetKind.MEMOGATE_GATED, server, Optional.of(control));
        } catch (InterruptedException | RuntimeException e) {
            control.close();
            throw e;
        }
    }

    private static MemogateConfig config(Backend backend) {
        BackendConfig server = new BackendConfig("bench", backend.host(), backend.port(), List.of(), true,
                BackendTlsConfig.of(TlsMode.DISABLE));
        // Sessions are over when the benchmark stops the proxy, so no grace period is needed.
        LimitsConfig limits = LimitsConfig.DEFAULTS.withShutdownTimeout(Duration.ofSeconds(2));
        return new MemogateConfig(List.of(new ListenerConfig("127.0.0.1", 0, Optional.empty())), List.of(server), limits);
    }

    @Override
    public TargetKind kind() {
        return kind;
    }

    @Override
    public int port() {
        return server.port();
    }

    @Override
    public String description() {
        String admission = control.isEmpty() ? "every statement admitted at once"
                : "admission through the estimator and the gateways (default settings for "
                        + Runtime.getRuntime().availableProcessors() + " CPUs, static target 256 MiB, no broker)";
        return "Memogate (in the benchmark's JVM: " + Runtime.version() + ", "
                + server.eventLoops() + (server.eventLoops() == 1 ? " event-loop thread" : " event-loop threads")
                + " on " + server.transportName()
                + "), session mode, " + admission
                + (kind == TargetKind.MEMOGATE_UNIX ? ", to the server's Unix socket" : "")
                + ", on 127.0.0.1:" + port();
    }

    /**
     * This JVM's CPU time: the proxy's event loops, its JIT and GC, the harness, which only waits for
     * pgbench during a run (a few milliseconds per run to read its output), and the other Memogate
     * target's idle event loops when both run.
     */
    @Override
    public OptionalLong relayPid() {
        return OptionalLong.of(ProcessHandle.current().pid());
    }

    @Override
    public Optional<Duration> cpuTime() {
        return ProcessHandle.current().info().totalCpuDuration();
    }

    /** The server first, so that no session is admitted by a closed control. */
    @Override
    public void close() {
        try {
            server.close();
        } finally {
            control.ifPresent(AdmissionControl::close);
        }
    }
}

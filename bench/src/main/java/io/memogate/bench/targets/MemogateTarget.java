package io.memogate.bench.targets;

import io.memogate.proxy.admission.ImmediateAdmission;
import io.memogate.proxy.config.BackendConfig;
import io.memogate.proxy.config.BackendTlsConfig;
import io.memogate.proxy.config.LimitsConfig;
import io.memogate.proxy.config.ListenerConfig;
import io.memogate.proxy.config.MemogateConfig;
import io.memogate.proxy.config.TlsMode;
import io.memogate.proxy.server.ProxyServer;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The proxy, started in this JVM exactly as `memogate run` starts it (ProxyServer with every statement
 * admitted at once), on a free port, without TLS on either leg: the other targets use none either.
 * The harness shares the JVM but only waits on pgbench while a run is measured.
 */
public final class MemogateTarget implements Target {

    private final ProxyServer server;

    private MemogateTarget(ProxyServer server) {
        this.server = server;
    }

    public static MemogateTarget start(Backend backend) throws InterruptedException {
        BackendConfig server = new BackendConfig("bench", backend.host(), backend.port(), List.of(), true,
                BackendTlsConfig.of(TlsMode.DISABLE));
        // Sessions are over when the benchmark stops the proxy, so no grace period is needed.
        LimitsConfig limits = LimitsConfig.DEFAULTS.withShutdownTimeout(Duration.ofSeconds(2));
        MemogateConfig config = new MemogateConfig(List.of(new ListenerConfig("127.0.0.1", 0, Optional.empty())),
                List.of(server), limits);
        return new MemogateTarget(ProxyServer.start(config, new ImmediateAdmission()));
    }

    @Override
    public TargetKind kind() {
        return TargetKind.MEMOGATE;
    }

    @Override
    public int port() {
        return server.port();
    }

    @Override
    public String description() {
        return "Memogate (in the benchmark's JVM: " + Runtime.version() + ", "
                + Runtime.getRuntime().availableProcessors() + " event-loop threads), session mode, every statement"
                + " admitted at once, on 127.0.0.1:" + port();
    }

    /**
     * This JVM's CPU time: the proxy's event loops, its JIT and GC, and the harness, which only waits
     * for pgbench during a run (a few milliseconds per run to read its output).
     */
    @Override
    public Optional<Duration> cpuTime() {
        return ProcessHandle.current().info().totalCpuDuration();
    }

    @Override
    public void close() {
        server.close();
    }
}

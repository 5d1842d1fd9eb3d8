package io.memogate.bench.targets;

import io.memogate.bench.process.ChildProcess;
import io.memogate.bench.process.FreePort;
import io.memogate.bench.process.TempDirectory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Memogate as a user runs it: {@code bin/memogate run --config FILE} in a process of its own, with the
 * configuration {@code bin/memogate demo} runs ({@code DemoConfig}): the gateways on, the broker polling
 * the server with a pg_monitor role and measuring its processes from /proc (co-located), the catalogs read with
 * that role, the metrics endpoint and the console on, the file watched for changes. The launcher picks the JDK
 * and the JVM options ({@code MEMOGATE_JAVA_OPTS}, none unless set) and execs Java, so the process started is
 * the proxy's JVM, whose CPU time /proc gives as it gives PgBouncer's and HAProxy's: JIT, GC, the broker's polls
 * and the metrics included, as they are in production.
 */
public final class ShippedMemogateTarget extends ProcessTarget {

    /** The launcher may build the jar first when sources are newer than it. */
    private static final Duration START_TIMEOUT = Duration.ofMinutes(5);
    static final String BACKEND = "bench";

    private final int metricsPort;
    /** The checkout whose bin/memogate runs it, and its commit. */
    private final String build;

    private ShippedMemogateTarget(TargetKind kind, int port, int metricsPort, String build, ChildProcess process,
                                  TempDirectory directory) {
        super(kind, port, process, directory);
        this.metricsPort = metricsPort;
        this.build = build;
    }

    /**
     * Runs {@code launcher} ({@code bin/memogate} of a checkout) in front of {@code backend}.
     *
     * @param kind MEMOGATE_SHIPPED, MEMOGATE_SHIPPED_ONE_LOOP for the same with one event loop,
     *     MEMOGATE_SHIPPED_UNGATED for the same with admission off,
     *     MEMOGATE_BASELINE for the same as MEMOGATE_SHIPPED from another checkout, or MEMOGATE_BEHIND_PGBOUNCER for
     *     the same behind PgBouncer
     * @param monitor the broker's pg_monitor role on the server
     */
    public static ShippedMemogateTarget start(TargetKind kind, Path launcher, Backend backend, Login monitor)
            throws IOException, InterruptedException {
        TempDirectory directory = TempDirectory.create("memogate-bench-shipped-");
        try {
            int port = FreePort.find();
            int metricsPort = FreePort.find();
            Path config = directory.resolve("memogate.yaml");
            Files.writeString(config, config(kind, backend, monitor, port, metricsPort));
            Path checkout = launcher.toAbsolutePath().getParent().getParent();
            // Read before the process starts, so that nothing is left running when the reading fails.
            String build = checkout + " at " + CheckoutRevision.of(checkout);
            ChildProcess process = ChildProcess.start("memogate", List.of(launcher.toString(), "run", "--config",
                    config.toString()), directory.path(), directory.resolve("memogate.log"));
            process.awaitPortOrStop(port, START_TIMEOUT);
            return new ShippedMemogateTarget(kind, port, metricsPort, build, process, directory);
        } catch (IOException | InterruptedException | RuntimeException e) {
            directory.close();
            throw e;
        }
    }

    /**
     * The demo's configuration as a file, its addresses this machine's free ports and the bench server; with one
     * event loop for MEMOGATE_SHIPPED_ONE_LOOP, and the gateways off for MEMOGATE_SHIPPED_UNGATED.
     */
    static String config(TargetKind kind, Backend backend, Login monitor, int port, int metricsPort) {
        String variant = switch (kind) {
            case MEMOGATE_SHIPPED_ONE_LOOP -> "network: { eventLoops: 1 }\n";
            case MEMOGATE_SHIPPED_UNGATED -> "admission: { enabled: false }\n";
            default -> "";
        };
        return variant + """
                listeners:
                  - { host: 127.0.0.1, port: %d }
                backends:
                  - { name: %s, host: "%s", port: %d, default: true, tls: { mode: disable } }
                limits:
                  shutdownTimeout: 2s
                admin:
                  http: { host: 127.0.0.1, port: %d }
                  users: ["%s"]
                broker:
                  monitor: { user: "%s", password: "%s" }
                  coLocated: true
                """.formatted(port, BACKEND, backend.host(), backend.port(), metricsPort, backend.user(),
                monitor.user(), monitor.password());
    }

    /**
     * {@code bin/memogate} of the checkout this benchmark runs from: the jar is bench/target/memogate-bench.jar,
     * or the classes bench/target/classes; the system property {@code memogate.repository} names another.
     */
    public static Optional<Path> launcher() {
        Path repository;
        String named = System.getProperty("memogate.repository");
        if (named != null) {
            repository = Path.of(named);
        } else {
            try {
                Path location = Path.of(ShippedMemogateTarget.class.getProtectionDomain().getCodeSource().getLocation()
                        .toURI());
                repository = location.getParent().getParent().getParent();
            } catch (Exception | Error e) {
                return Optional.empty();
            }
            if (repository == null) {
                return Optional.empty(); // a jar copied out of the repository, near the file system's root
            }
        }
        return launcherIn(repository);
    }

    /** {@code bin/memogate} of {@code checkout}, if it has one that may be run. */
    public static Optional<Path> launcherIn(Path checkout) {
        Path script = checkout.resolve("bin/memogate").toAbsolutePath().normalize();
        return Files.isExecutable(script) ? Optional.of(script) : Optional.empty();
    }

    /** The metrics and health endpoint's port. */
    int metricsPort() {
        return metricsPort;
    }

    @Override
    public String description() {
        String options = LauncherOptions.javaOptions().map(o -> LauncherOptions.VARIABLE + "=" + o)
                .orElse("no " + LauncherOptions.VARIABLE);
        String admission = kind() == TargetKind.MEMOGATE_SHIPPED_UNGATED
                ? "but admission.enabled: false (no estimate, gateway, broker poll or catalog read)"
                : "gateways on, broker.monitor set and co-located, catalogs read";
        String loops = kind() == TargetKind.MEMOGATE_SHIPPED_ONE_LOOP ? ", network.eventLoops: 1" : "";
        return "Memogate as shipped: bin/memogate run of " + build + " (pid " + pid() + ", " + options + ") with the demo's"
                + " configuration: " + admission + ", metrics on 127.0.0.1:" + metricsPort + loops + ", on 127.0.0.1:"
                + port();
    }

    /** A role and its password. */
    public record Login(String user, String password) {}
}

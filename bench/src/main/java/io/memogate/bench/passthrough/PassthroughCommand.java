package io.memogate.bench.passthrough;

import io.memogate.bench.pgbench.QueryMode;
import io.memogate.bench.process.Executables;
import io.memogate.bench.report.BenchRecord;
import io.memogate.bench.report.ReportWriter;
import io.memogate.bench.targets.ShippedMemogateTarget;
import io.memogate.bench.targets.TargetKind;
import java.io.PrintWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * `memogate bench passthrough`: pgbench's select-only load directly against PostgreSQL, through
 * Memogate as shipped (bin/memogate run with the demo's configuration) or its in-JVM variants (gateways off,
 * and on with memogate-gated), and through PgBouncer and HAProxy when they are installed, alternating in one run; prints TPS per run, each target's ratio to direct and the
 * comparisons between the targets, and writes report.md and results.csv. Exits 1 when a run failed (it
 * is in the report), 0 otherwise.
 */
@Command(name = "passthrough", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
                "Throughput of pgbench -S directly, through Memogate (as shipped: bin/memogate run; in this JVM"
                        + " for A/B: memogate, memogate-gated, ...), and through PgBouncer (session mode) and HAProxy"
                        + " (mode tcp) when installed, alternating over rounds in one run.",
                "Starts its own PostgreSQL 18; needs pgbench (postgresql-client)."})
public final class PassthroughCommand implements Callable<Integer> {

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    @Spec
    CommandSpec spec;

    @Option(names = "--rounds", defaultValue = "3", description = "Rounds over all targets (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--seconds", defaultValue = "6", description = "Length of each measured run (default: ${DEFAULT-VALUE}).")
    int seconds;

    /**
     * 5 s: with 2 s, the in-JVM proxy's first measured run still paid for JIT compilation (41 us of CPU
     * per transaction against 23-32 us in later rounds, measured on a 2-core machine whose cores pgbench
     * and the server keep busy, so the compiler threads get little time).
     */
    @Option(names = "--warmup", defaultValue = "5", paramLabel = "SECONDS",
            description = "Unrecorded run per mode and target before round 1; 0 for none (default: ${DEFAULT-VALUE}).")
    int warmupSeconds;

    @Option(names = "--clients", split = ",", defaultValue = "16", paramLabel = "N",
            description = {"pgbench -c; several (16,64,256) run the rounds once per count and report the cost per"
                    + " transaction of each (default: ${DEFAULT-VALUE}).",
                    "The server's max_connections and PgBouncer's limits are raised to fit."})
    List<Integer> clients;

    @Option(names = "--threads", defaultValue = "2", description = "pgbench -j (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--modes", split = ",", defaultValue = "simple,prepared", paramLabel = "MODE",
            description = "pgbench -M query modes: simple, extended, prepared (default: ${DEFAULT-VALUE}).")
    List<QueryMode> modes;

    @Option(names = "--targets", split = ",", defaultValue = "direct,memogate-shipped,pgbouncer,haproxy",
            paramLabel = "TARGET", converter = TargetConverter.class,
            description = {"direct, memogate-shipped, memogate-shipped-one-loop, memogate-shipped-ungated, memogate-baseline, memogate, memogate-gated,"
                    + " memogate-epoll, memogate-io-uring, memogate-one-loop, memogate-unix, netty-relay, pgbouncer, pgbouncer-unix,"
                    + " pgbouncer-transaction, memogate-behind-pgbouncer,"
                    + " haproxy, haproxy-one-thread, haproxy-unix (default: ${DEFAULT-VALUE}).",
                    "Ratios to direct need direct; memogate-shipped is bin/memogate run in its own process with the"
                            + " demo's configuration (gateways, broker, catalogs, metrics), memogate-shipped-one-loop"
                            + " the same with network.eventLoops 1, memogate-shipped-ungated the same with"
                            + " admission.enabled false; memogate-baseline is memogate-shipped run by"
                            + " bin/memogate of the --baseline checkout; memogate runs in the"
                            + " benchmark's JVM, gateways off, for A/B;"
                            + " memogate-gated is memogate with the estimator and gateways on;"
                            + " memogate-epoll and memogate-io-uring are memogate on that network transport;"
                            + " memogate-one-loop is memogate with network.eventLoops 1;"
                            + " netty-relay is a Netty relay that parses nothing, in a JVM of its own, built as the"
                            + " proxy's session legs (the floor of a relay on the proxy's stack);"
                            + " haproxy-one-thread is haproxy with nbthread 1; the -unix ones reach the server over"
                            + " its Unix socket; pgbouncer-transaction is PgBouncer in transaction mode with a pool of 20,"
                            + " memogate-behind-pgbouncer the same in front of memogate-shipped (thousands of clients:"
                            + " --clients 1000 --modes simple,extended)."})
    List<TargetKind> targets;

    @Option(names = "--scale", defaultValue = "10", description = "pgbench -i -s data scale (default: ${DEFAULT-VALUE}).")
    int scale;

    @Option(names = "--counts",
            description = {"Also count, per run, each relay's system calls (perf stat on the syscall tracepoints),"
                    + " its threads' context switches (/proc) and, for a Java relay, the bytes it allocated;"
                    + " reported per transaction in cost.md. Counts hold on a machine shared with other work,"
                    + " where TPS and CPU time do not."})
    boolean counts;

    @Option(names = "--window", defaultValue = "steady", paramLabel = "WINDOW", converter = WindowConverter.class,
            description = {"What part of each run the relay's CPU and counts are read over (default: ${DEFAULT-VALUE}):"
                    + " steady, from pgbench's second progress report (all clients connected) to its first in the last 3 s,"
                    + " divided by the transactions pgbench reported in between (runs under 8 s, as the default 6 s, are read whole);"
                    + " whole, around the pgbench process, connection set-up included."})
    CountWindow window;

    @Option(names = "--baseline", paramLabel = "DIR",
            description = {"Another checkout of Memogate (a git worktree of the commit a change starts from, say), run"
                    + " by its own bin/memogate as the target memogate-baseline, which this option adds: the change"
                    + " and its baseline, each as it ships, side by side in the same rounds.",
                    "Its bin/memogate builds it first when its jar is older than its sources."})
    Path baseline;

    @Option(names = "--restart-each-round",
            description = {"Stop each target that relays in a process of its own (memogate-shipped, memogate-baseline,"
                    + " netty-relay, PgBouncer, HAProxy) and start it again before every round after the first, then"
                    + " warm it up again (--warmup): each round measures another process of each build.",
                    "Two JVMs of the same code can differ by a few µs of CPU a transaction; judging a small change"
                    + " needs several of each, which this gives with --rounds 5 or more."})
    boolean restartEachRound;

    @Option(names = "--output", paramLabel = "DIR",
            description = "Directory for report.md, results.csv, costs.csv and runs/ (default: bench/target/passthrough-<timestamp>).")
    Path output;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Path directory = output != null ? output : defaultOutput();
        PassthroughPlan plan;
        try {
            plan = new PassthroughPlan(rounds, seconds, warmupSeconds, clients, threads, modes, targets, scale, directory,
                    counts, window, baselineCheckout(), restartEachRound);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        PassthroughOutcome outcome = new PassthroughBench(plan, out, Executables.fromEnvironment()).run();

        boolean allSucceeded = true;
        for (Map.Entry<Integer, BenchRecord> pass : outcome.records().entrySet()) {
            // One client count keeps the report's names; several name each report after its count.
            String suffix = outcome.records().size() == 1 ? "" : "-c" + pass.getKey();
            ReportWriter writer = new ReportWriter(pass.getValue());
            Path report = directory.resolve("report" + suffix + ".md");
            Files.writeString(report, writer.markdown("memogate bench passthrough"));
            Files.writeString(directory.resolve("results" + suffix + ".csv"), writer.csv());
            out.println();
            out.println("clients: " + pass.getKey());
            out.print(writer.text());
            out.println();
            out.println("report: " + report);
            allSucceeded &= pass.getValue().allSucceeded();
        }
        CostReport cost = new CostReport(outcome.costs(), plan.window());
        Files.writeString(directory.resolve("costs.csv"), cost.csv());
        if (plan.counts() || outcome.records().size() > 1 || cost.hasSplit()) {
            Files.writeString(directory.resolve("cost.md"), cost.markdown());
            out.println();
            out.println("cost per transaction (median of the rounds):");
            out.print(cost.text());
            if (cost.hasSplit()) {
                out.println();
                out.println("where the machine's CPU went, us per transaction (median of the rounds):");
                out.print(cost.splitText());
            }
            out.println("cost: " + directory.resolve("cost.md"));
        }
        out.flush();
        if (!allSucceeded) {
            spec.commandLine().getErr().println("memogate bench: some runs failed; see the report and " + directory.resolve("runs"));
            return 1;
        }
        return 0;
    }

    /** The --baseline checkout, refused here when it has no bin/memogate rather than skipped after the set-up. */
    Optional<Path> baselineCheckout() {
        if (baseline == null) {
            return Optional.empty();
        }
        Path checkout = baseline.toAbsolutePath().normalize();
        if (ShippedMemogateTarget.launcherIn(checkout).isEmpty()) {
            throw new IllegalArgumentException("--baseline " + baseline + ": no executable bin/memogate there");
        }
        return Optional.of(checkout);
    }

    /** Target labels as the report prints them ("memogate-gated"), in any case. */
    static final class TargetConverter implements ITypeConverter<TargetKind> {
        @Override
        public TargetKind convert(String value) {
            try {
                return TargetKind.fromLabel(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /** steady or whole, in any case. */
    static final class WindowConverter implements ITypeConverter<CountWindow> {
        @Override
        public CountWindow convert(String value) {
            for (CountWindow window : CountWindow.values()) {
                if (window.label().equalsIgnoreCase(value)) {
                    return window;
                }
            }
            throw new TypeConversionException("no window " + value + "; steady or whole");
        }
    }

    /**
     * bench/target/passthrough-TIMESTAMP: next to the jar bin/memogate runs (bench/target/memogate-bench.jar),
     * or to the classes directory (bench/target/classes) when run from the build.
     */
    private static Path defaultOutput() throws URISyntaxException {
        Path location = Path.of(PassthroughCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path target = location.getParent() != null ? location.getParent() : Path.of("target");
        return target.resolve("passthrough-" + LocalDateTime.now().format(STAMP)).toAbsolutePath();
    }
}

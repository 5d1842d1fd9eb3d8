package io.memogate.bench.passthrough;

import io.memogate.bench.pgbench.Pgbench;
import io.memogate.bench.pgbench.PgbenchLoad;
import io.memogate.bench.pgbench.PgbenchResult;
import io.memogate.bench.pgbench.PgbenchRun;
import io.memogate.bench.pgbench.QueryMode;
import io.memogate.bench.process.CommandResult;
import io.memogate.bench.process.Commands;
import io.memogate.bench.process.Executables;
import io.memogate.bench.process.RunAs;
import io.memogate.bench.report.BenchRecord;
import io.memogate.bench.report.MachineLoad;
import io.memogate.bench.report.Measurement;
import io.memogate.bench.report.TargetInfo;
import io.memogate.bench.targets.Launch;
import io.memogate.bench.targets.Target;
import io.memogate.bench.targets.TargetKind;
import io.memogate.bench.targets.TargetLauncher;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The passthrough benchmark: one PostgreSQL, every target in front of it at once, and pgbench's
 * select-only load against each target in turn, alternating over the rounds so that whatever else
 * the machine does affects all targets alike (docs/DESIGN.md, Testing: ratios measured side by side).
 *
 * <p>Order of work: find pgbench (fail before starting anything); start the server and load the data
 * directly; start the targets (skipping tools that are not installed); one unrecorded warm-up run per
 * mode and target; then per round, per mode, every target once, in {@link Schedule}'s rotating order (with
 * {@link PassthroughPlan#restarts()}, the targets in processes of their own started again and warmed up before each
 * round after the first).
 * Each run's full pgbench output goes to {@code runs/} under the output directory.
 */
final class PassthroughBench {

    /** PgBouncer refuses root; this is who it runs as then. */
    private static final String UNPRIVILEGED_USER = "nobody";

    private final PassthroughPlan plan;
    private final PrintWriter out;
    private final Executables executables;

    PassthroughBench(PassthroughPlan plan, PrintWriter out, Executables executables) {
        this.plan = plan;
        this.out = out;
        this.executables = executables;
    }

    PassthroughOutcome run() throws Exception {
        Path pgbenchExecutable = Pgbench.find(executables);
        Path runs = Files.createDirectories(plan.outputDirectory().resolve("runs"));
        Resources resources = new Resources();
        Thread hook = new Thread(() -> closeOnExit(resources), "bench-passthrough-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            return run(resources, pgbenchExecutable, runs);
        } finally {
            progress("stopping the targets and PostgreSQL");
            resources.close();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException exiting) {
                // The JVM is already exiting: the hook runs and finds everything closed.
            }
        }
    }

    private PassthroughOutcome run(Resources resources, Path pgbenchExecutable, Path runs) throws Exception {
        String loadAtStart = Machine.loadAverage();
        progress("starting PostgreSQL 18 (embedded)");
        BenchDatabase database = resources.add(BenchDatabase.start(maxConnections()));
        Pgbench pgbench = new Pgbench(pgbenchExecutable, database.backend());
        progress("loading pgbench data: pgbench -i -s " + plan.scale() + " (directly)");
        pgbench.initialize(plan.scale());

        TargetLauncher launcher = new TargetLauncher(database.backend(), database.version(), executables,
                RunAs.forThisProcess(UNPRIVILEGED_USER), database.monitor(), plan.mostClients(), plan.baseline());
        Map<TargetKind, Target> running = new EnumMap<>(TargetKind.class);
        List<TargetInfo> targets = new ArrayList<>();
        for (TargetKind kind : plan.targets()) {
            Launch launch = launcher.launch(kind);
            switch (launch) {
                case Launch.Started started -> {
                    running.put(kind, resources.add(started.target()));
                    targets.add(new TargetInfo(kind, false, started.target().description()));
                }
                case Launch.Skipped skipped -> targets.add(new TargetInfo(kind, true, skipped.reason()));
            }
            out.printf(Locale.ROOT, "  %-" + labelWidth() + "s %s%n", kind.label(), targets.getLast().description());
        }
        out.flush();
        Optional<SyscallCounter> syscalls = plan.counts() ? syscallCounter(runs) : Optional.empty();

        Schedule schedule = new Schedule(plan.targets().stream().filter(running::containsKey).toList());
        Map<Integer, BenchRecord> records = new LinkedHashMap<>();
        List<CountedRun> costs = new ArrayList<>();
        for (int clients : plan.clients()) {
            String pass = plan.clients().size() == 1 ? "" : "c" + clients + "-";
            if (plan.warmupSeconds() > 0) {
                for (QueryMode mode : plan.modes()) {
                    for (TargetKind kind : schedule.order(1)) {
                        warmUp(running.get(kind), pgbench, mode, clients, runs, pass + "warmup", "warm-up");
                    }
                }
            }
            List<Measurement> measurements = new ArrayList<>();
            List<List<String>> orders = new ArrayList<>();
            for (int round = 1; round <= plan.rounds(); round++) {
                if (round > 1 && plan.restarts()) {
                    restartProcesses(launcher, running, resources, pgbench, clients, runs, pass + "round" + round);
                }
                List<TargetKind> order = schedule.order(round);
                orders.add(order.stream().map(TargetKind::label).toList());
                for (QueryMode mode : plan.modes()) {
                    for (int position = 1; position <= order.size(); position++) {
                        TargetKind kind = order.get(position - 1);
                        String name = pass + "round" + round + "-" + mode.label() + "-" + kind.label();
                        Measurement measurement = measure(running.get(kind), pgbench, plan.load(mode, clients),
                                round, position, syscalls, runs, name, costs);
                        measurements.add(measurement);
                        report("round " + round + "/" + plan.rounds(), mode, kind, clients, measurement.result());
                    }
                }
            }
            records.put(clients, new BenchRecord(settings(pgbench, database, loadAtStart, pgbenchExecutable, clients,
                    syscalls.isPresent()), Machine.describe(), plan.modes(), plan.rounds(), targets, orders,
                    measurements));
        }
        return new PassthroughOutcome(records, costs);
    }

    /**
     * Stops each target that relays in a process of its own and starts it again, then warms it up as before round 1:
     * the next round measures another process of the same build.
     */
    private void restartProcesses(TargetLauncher launcher, Map<TargetKind, Target> running, Resources resources,
                                  Pgbench pgbench, int clients, Path runs, String prefix) throws Exception {
        for (TargetKind kind : plan.targets()) {
            Target before = running.get(kind);
            if (before == null || !relaysApart(before)) {
                continue;
            }
            resources.closeNow(before);
            Target after = switch (launcher.launch(kind)) {
                case Launch.Started started -> resources.add(started.target());
                case Launch.Skipped skipped -> throw new IllegalStateException(kind.label()
                        + " started before round 1 but not again: " + skipped.reason());
            };
            running.put(kind, after);
            if (plan.warmupSeconds() > 0) {
                for (QueryMode mode : plan.modes()) {
                    warmUp(after, pgbench, mode, clients, runs, prefix + "-restarted-warmup", "restarted");
                }
            }
        }
    }

    /** One unrecorded run of {@code target}, its output saved as {@code <prefix>-<mode>-<target>.txt}. */
    private void warmUp(Target target, Pgbench pgbench, QueryMode mode, int clients, Path runs, String prefix,
                        String phase) throws IOException, InterruptedException {
        PgbenchRun warmup = pgbench.run(target.port(), plan.warmup(mode, clients));
        save(runs.resolve(prefix + "-" + mode.label() + "-" + target.kind().label() + ".txt"), warmup.command());
        report(phase, mode, target.kind(), clients, warmup.result());
    }

    /** Whether {@code target} relays in processes other than this JVM, which a restart replaces. */
    private static boolean relaysApart(Target target) {
        Set<Long> pids = target.relayPids();
        return !pids.isEmpty() && !pids.contains(ProcessHandle.current().pid());
    }

    /**
     * One recorded run of {@code target}; its cost per transaction goes to {@code costs} when it succeeded, with its
     * counts when the plan asks for them and the target has a relaying process of its own.
     */
    private Measurement measure(Target target, Pgbench pgbench, PgbenchLoad load, int round, int position,
                                Optional<SyscallCounter> syscalls, Path runs, String name, List<CountedRun> costs)
            throws Exception {
        boolean counted = plan.counts() && target.relayPid().isPresent();
        RelayReader reader = new RelayReader(target, pgbench, () -> counted
                ? Optional.of(CountProbe.start(target.relayPid().getAsLong(), syscalls, runs.resolve(name + ".perf")))
                : Optional.empty());
        Optional<CpuCounters> machineBefore = CpuCounters.read();
        long started = System.nanoTime();
        RelayRun relay = reader.read(load, plan.window());
        PgbenchRun run = relay.run();
        Duration wall = Duration.ofNanos(System.nanoTime() - started);
        Optional<MachineLoad> machine = machineBefore.flatMap(before -> CpuCounters.read()
                .flatMap(after -> after.since(before, wall)));
        Optional<RunCounts> counts = relay.counts();
        if (run.succeeded() && (target.cpuTime().isPresent() && relay.cpu().isEmpty() || counted && counts.isEmpty())) {
            out.println("  " + name + ": the relay's CPU or counts could not be read over the window");
        }
        save(runs.resolve(name + ".txt"), run.command());
        Measurement measurement = new Measurement(load.mode(), round, position, target.kind(), run.result(),
                relay.cpu(), machine, relay.cpuTransactions());
        if (run.result() instanceof PgbenchResult.Succeeded ok) {
            costs.add(new CountedRun(load.clients(), load.mode(), round, target.kind(), ok.transactions(), ok.tps(),
                    measurement.cpuMicrosPerTransaction(), counts, relay.split()));
        }
        return measurement;
    }

    /** perf when it can count here; without it the counts keep the context switches and the allocation. */
    private Optional<SyscallCounter> syscallCounter(Path runs) throws InterruptedException {
        Optional<Path> perf = executables.find("perf");
        Optional<SyscallCounter> counter = perf.isEmpty() ? Optional.empty()
                : SyscallCounter.available(perf.get(), runs);
        if (counter.isEmpty()) {
            out.println("  no system call counts: " + (perf.isEmpty() ? "perf is not installed"
                    : "perf stat cannot read the syscall tracepoints here (root or kernel.perf_event_paranoid <= -1)"));
        }
        return counter;
    }

    /**
     * Every target's server connections at once, and some to spare: PgBouncer keeps its pool's connections open
     * while another target runs, and the shipped proxy's broker and catalog reader have their own.
     */
    private int maxConnections() {
        return Math.max(100, plan.mostClients() * (plan.targets().size() + 1) + 20);
    }

    private List<String> settings(Pgbench pgbench, BenchDatabase database, String loadAtStart, Path executable,
                                  int clients, boolean syscallsCounted) throws Exception {
        List<String> lines = new ArrayList<>();
        for (QueryMode mode : plan.modes()) {
            lines.add("load (" + mode.label() + "): `" + pgbench.describe(plan.load(mode, clients)) + "`");
        }
        if (plan.counts()) {
            lines.add("counted per run: " + (syscallsCounted ? "system calls (perf stat), " : "")
                    + "context switches (/proc/PID/task/*/status) and a Java relay's allocated bytes; see cost.md");
        }
        lines.add("relay CPU" + (plan.counts() ? " and counts" : "") + " read " + plan.window().describe());
        lines.add(plan.rounds() + (plan.rounds() == 1 ? " round" : " rounds") + " of " + plan.seconds() + " s per run; "
                + (plan.warmupSeconds() > 0 ? "one unrecorded warm-up run of " + plan.warmupSeconds()
                + " s per mode and target first" : "no warm-up"));
        if (plan.restarts()) {
            lines.add("each target relaying in a process of its own was stopped and started again before every round"
                    + " after the first" + (plan.warmupSeconds() > 0 ? ", and warmed up again" : "")
                    + ": each round measured another process (the pids above are round 1's)");
        }
        lines.add("data: `pgbench -i -s " + plan.scale() + "`, loaded directly; TPS is pgbench's figure without"
                + " connection set-up; the median of the rounds, and ratios of medians");
        lines.add("the memogate-shipped targets, memogate-baseline and memogate-behind-pgbouncer each run bin/memogate"
                + " in a process of its own (its JVM's CPU from /proc); the other memogate targets run inside the"
                + " benchmark's JVM, which only waits for pgbench while a run is measured");
        lines.add("pgbench: " + version(executable));
        lines.add("server: PostgreSQL " + database.version() + " (embedded), " + database.settings());
        // The load average counts this benchmark's own runnable processes (16 backends, pgbench, the proxy)
        // as much as anyone else's: only the value at start says something about other tenants.
        lines.add("load average (1, 5, 15 min) at start: " + loadAtStart + "; at end, counting this benchmark's own"
                + " processes: " + Machine.loadAverage());
        return lines;
    }

    private static String version(Path executable) throws IOException, InterruptedException {
        CommandResult result = Commands.run(List.of(executable.toString(), "--version"), Commands.baseEnvironment(),
                Duration.ofSeconds(30));
        return result.output().strip();
    }

    private void report(String phase, QueryMode mode, TargetKind kind, int clients, PgbenchResult result) {
        String outcome = switch (result) {
            case PgbenchResult.Succeeded ok -> String.format(Locale.ROOT, "%10.0f tps", ok.tps());
            case PgbenchResult.Failed failed -> "FAILED: " + failed.reason();
        };
        String pass = plan.clients().size() == 1 ? "" : "c" + clients + " ";
        out.printf(Locale.ROOT, "%s%-11s %-9s %-" + labelWidth() + "s %s%n", pass, phase, mode.label(), kind.label(),
                outcome);
        out.flush();
    }

    /** The longest of the plan's target labels: the progress lines' columns stay aligned. */
    private int labelWidth() {
        return plan.targets().stream().mapToInt(kind -> kind.label().length()).max().orElse(1);
    }

    private void progress(String what) {
        out.println(what + " ...");
        out.flush();
    }

    private static void save(Path file, CommandResult result) throws IOException {
        Files.writeString(file, "$ " + result.commandLine() + "\n" + result.output() + "exit status " + result.exitCode() + "\n");
    }

    /** On Ctrl-C or SIGTERM: stop the tools we started, since they would outlive the JVM. */
    private static void closeOnExit(Resources resources) {
        try {
            resources.close();
        } catch (Exception e) {
            System.err.println("memogate bench: cleaning up on exit failed: " + e);
            e.printStackTrace();
        }
    }
}

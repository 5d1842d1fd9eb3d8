package io.memogate.bench.storm;

import io.memogate.bench.passthrough.Machine;
import io.memogate.bench.storm.governor.MemoryGovernor;
import io.memogate.bench.storm.governor.MemoryTrace;
import io.memogate.bench.storm.load.EventLog;
import io.memogate.bench.storm.load.Mode;
import io.memogate.bench.storm.load.StormClient;
import io.memogate.bench.storm.load.Template;
import io.memogate.bench.storm.report.CellFigures;
import io.memogate.bench.storm.report.CellRecord;
import io.memogate.bench.storm.report.GatewayFigures;
import io.memogate.bench.storm.report.RunInfo;
import io.memogate.bench.storm.report.StormCharts;
import io.memogate.bench.storm.report.StormReport;
import io.memogate.broker.gateway.Sizes;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * The storm: every cell of the {@link StormPlan} in its order, each on a fresh server with its own
 * governor, then the report.
 *
 * <p>One cell: start the server (the governor watches it from before the warehouse is loaded), start the
 * target, start the clients together; after the warm-up the measured window opens, and closes after the
 * measured duration; then the clients are stopped (their connections aborted), the target closed, the
 * server stopped and checked for leftover processes. A cell that fails is reported as failed and the run
 * goes on, except when the governor itself failed: then nothing more may run.
 */
final class StormBench {

    /** How often the waiting thread looks at the governor, and how long stopped clients may take to end. */
    private static final Duration POLL = Duration.ofMillis(250);
    private static final Duration CLIENT_STOP = Duration.ofSeconds(60);
    /** How a cell's failure starts when the governor stopped watching: then no further cell may run. */
    private static final String GOVERNOR_FAILED = "the memory governor failed";

    private final StormPlan plan;
    private final List<Template> templates;
    private final PrintWriter out;
    private final String command;

    StormBench(StormPlan plan, List<Template> templates, PrintWriter out, String command) {
        this.plan = plan;
        this.templates = List.copyOf(templates);
        this.out = out;
        this.command = command;
    }

    /** Runs every cell and writes the report; true when every cell completed. */
    boolean run() throws Exception {
        Path directory = Files.createDirectories(plan.outputDirectory());
        String started = OffsetDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")) + " UTC";
        String loadAtStart = Machine.loadAverage();
        List<CellRecord> records = new ArrayList<>();
        List<StormPlan.Cell> cells = plan.cells();
        for (int i = 0; i < cells.size(); i++) {
            StormPlan.Cell cell = cells.get(i);
            progress(String.format(Locale.ROOT, "cell %d/%d: %d clients, %s, %s", i + 1, cells.size(), cell.clients(),
                    cell.style().description(), cell.mode().description()));
            CellRecord record = runCell(i + 1, cell, directory);
            records.add(record);
            if (record.failure().isPresent()) {
                out.println("  FAILED: " + record.failure().get());
                if (record.failure().get().startsWith(GOVERNOR_FAILED)) {
                    break;
                }
            }
        }
        List<CellFigures> figures = records.stream()
                .sorted((a, b) -> a.clients() != b.clients() ? Integer.compare(a.clients(), b.clients())
                        : a.style() != b.style() ? a.style().compareTo(b.style()) : a.mode().compareTo(b.mode()))
                .map(CellFigures::of).toList();
        RunInfo info = new RunInfo(command, started, machine(loadAtStart), emulation(), setup(), templates,
                plan.hostMemoryBytes());
        StormReport report = new StormReport(info, figures);
        List<String> charts = StormCharts.write(directory, figures, plan.hostMemoryBytes());
        Files.writeString(directory.resolve("report.md"), report.markdown(charts));
        Files.writeString(directory.resolve("summary.csv"), report.summaryCsv());
        Files.writeString(directory.resolve("slices.csv"), report.slicesCsv());
        Files.writeString(directory.resolve("attempts.csv"), report.attemptsCsv());
        out.println();
        out.print(report.text());
        out.println("report: " + directory.resolve("report.md"));
        out.flush();
        return records.stream().allMatch(r -> r.failure().isEmpty());
    }

    private CellRecord runCell(int order, StormPlan.Cell cell, Path directory) {
        long sliceNanos = plan.slice().toNanos();
        EventLog log = new EventLog();
        List<StormClient> clients = new ArrayList<>();
        String target = cell.mode().description();
        long windowStart = System.nanoTime();
        long windowEnd = windowStart + plan.measured().toNanos();
        int restarts = 0;
        Optional<String> failure = Optional.empty();
        Optional<GatewayFigures> gateways = Optional.empty();
        MemoryGovernor governor = null;
        try (StormServer server = StormServer.start(plan.hostMemoryBytes(), plan.governorInterval())) {
            governor = server.governor();
            try (StormTarget running = StormTarget.start(cell.mode(), server, plan)) {
                target = running.description();
                List<Thread> threads = new ArrayList<>();
                for (int id = 1; id <= cell.clients(); id++) {
                    // The same seed per client in every mode: each mode gets the same sequence of reports.
                    StormClient client = new StormClient(id, running.endpoint(id), cell.style(), templates, plan.retries(),
                            plan.retryPause(), new SplittableRandom(plan.seed() * 1_000_003L + id), log, System::nanoTime);
                    clients.add(client);
                    threads.add(Thread.ofPlatform().name("storm-client-" + id).daemon(true).unstarted(client));
                }
                threads.forEach(Thread::start);
                long started = System.nanoTime();
                awaitUntil(started + plan.warmup().toNanos(), governor);
                windowStart = System.nanoTime();
                windowEnd = windowStart + plan.measured().toNanos();
                long logStart = server.logOffset();
                for (long sliceEnd = windowStart + sliceNanos; ; sliceEnd = Math.min(sliceEnd + sliceNanos, windowEnd)) {
                    awaitUntil(sliceEnd, governor);
                    reportSlice(log, governor.trace(), sliceEnd - sliceNanos, sliceEnd, windowStart);
                    if (sliceEnd == windowEnd) {
                        break;
                    }
                }
                restarts = server.restarts(logStart, server.logOffset());
                stop(clients, threads);
                gateways = cell.mode() == Mode.DIRECT || cell.mode() == Mode.GATEWAYS_OFF ? Optional.empty()
                        : Optional.of(running.gatewayCounts());
            } finally {
                clients.forEach(StormClient::stop);
            }
            server.saveLog(directory.resolve("server-" + order + "-" + cell.label() + ".log"));
        } catch (Exception | Error e) {
            failure = Optional.of(governor != null && governor.failure().isPresent()
                    ? GOVERNOR_FAILED + ": " + governor.failure().get() : e.toString());
        }
        MemoryTrace trace = governor != null ? governor.trace() : null;
        List<Long> slicePeaks = new ArrayList<>();
        for (long from = windowStart; from - windowEnd < 0; from += sliceNanos) {
            slicePeaks.add(trace == null ? 0 : trace.peak(from, Math.min(from + sliceNanos, windowEnd)));
        }
        return new CellRecord(order, cell.clients(), cell.style(), cell.mode(), target, windowStart, windowEnd,
                log.attempts(), log.submissions(), sliceNanos, slicePeaks,
                trace == null ? 0 : trace.peak(windowStart, windowEnd),
                governor == null ? 0 : governor.kills(windowStart, windowEnd).size(), restarts,
                trace == null ? 0 : trace.samples(windowStart, windowEnd),
                trace == null ? 0 : trace.longestGapNanos(windowStart, windowEnd), gateways, failure);
    }

    /** Waits, looking at the governor: a storm without its governor must end at once. */
    private static void awaitUntil(long deadlineNanos, MemoryGovernor governor) throws InterruptedException {
        while (true) {
            if (governor.failure().isPresent()) {
                throw new IllegalStateException(GOVERNOR_FAILED, governor.failure().get());
            }
            long left = deadlineNanos - System.nanoTime();
            if (left <= 0) {
                return;
            }
            Thread.sleep(Duration.ofNanos(Math.min(left, POLL.toNanos())));
        }
    }

    private static void stop(List<StormClient> clients, List<Thread> threads) throws InterruptedException {
        clients.forEach(StormClient::stop);
        long deadline = System.nanoTime() + CLIENT_STOP.toNanos();
        for (Thread thread : threads) {
            thread.join(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
            if (thread.isAlive()) {
                throw new IllegalStateException(thread.getName() + " did not stop within " + CLIENT_STOP.toSeconds() + " s");
            }
        }
    }

    private void reportSlice(EventLog log, MemoryTrace trace, long from, long to, long windowStart) {
        long attempts = log.attempts().stream().filter(a -> a.endNanos() - from >= 0 && a.endNanos() - to < 0).count();
        long ok = log.attempts().stream().filter(a -> a.succeeded() && a.endNanos() - from >= 0 && a.endNanos() - to < 0)
                .count();
        out.printf(Locale.ROOT, "  %4.0f s: %3d queries completed, %3d attempts, peak server memory %.2f GiB%n",
                (to - windowStart) / 1e9, ok, attempts, trace.peak(from, to) / (double) (1L << 30));
        out.flush();
    }

    private void progress(String what) {
        out.println(what + " ...");
        out.flush();
    }

    private List<String> machine(String loadAtStart) {
        List<String> lines = new ArrayList<>(Machine.describe());
        lines.add("load average (1, 5, 15 min) at start: " + loadAtStart + "; at end, counting this benchmark's own"
                + " processes: " + Machine.loadAverage());
        return lines;
    }

    private List<String> emulation() {
        return List.of(
                "The database host is emulated: this machine has " + Machine.describe().get(1).replace("memory: ", "")
                        + ", the emulated host " + Sizes.bytes(plan.hostMemoryBytes()) + ".",
                "A memory governor in the benchmark samples the private resident memory (RssAnon from /proc/PID/status)"
                        + " of the postmaster and every child every " + plan.governorInterval().toMillis() + " ms"
                        + " (VmRSS would count shared buffers once per process; shared memory is not counted);"
                        + " its thread runs in the SCHED_FIFO real-time class, so busy backends cannot delay it."
                        + " The per-cell table gives the longest gap between samples actually seen.",
                "When the sum exceeds the emulated host it SIGKILLs the largest backend, never the postmaster, as the"
                        + " kernel's OOM killer would; PostgreSQL then ends every session and reinitializes, exactly as"
                        + " after a real OOM kill. The figures count those restarts from the server log.",
                "The server's processes have oom_score_adj = 1000, so the real OOM killer would pick them first.",
                "Every cell runs on a freshly started server (initdb, the demo warehouse loaded and analyzed), so no"
                        + " retained memory or recovery carries from one mode into the next.");
    }

    private List<String> setup() {
        List<String> lines = new ArrayList<>();
        lines.add("server: PostgreSQL 18 (embedded binaries) with " + StormServer.PLANNER_SETTINGS
                + ", shared_buffers " + StormServer.SHARED_BUFFERS + ", max_connections " + StormServer.MAX_CONNECTIONS
                + ", fsync off; the demo warehouse (sales and 30 dimension tables)");
        lines.add("clients: " + plan.clients() + " per cell; each loops: pick one of " + templates.size()
                + " templates at random, make it unique, run it and read every row; on failure reconnect if the"
                + " connection is gone and retry, up to " + plan.retries() + " retries, pausing "
                + plan.retryPause().toMillis() + " ms after a lost connection; pgjdbc, extended protocol");
        lines.add("warm-up " + plan.warmup().toSeconds() + " s (not counted), measured window "
                + plan.measured().toSeconds() + " s, slices of " + plan.slice().toSeconds() + " s; seed " + plan.seed());
        lines.add("gateways-on: Memogate's defaults for this machine's CPUs, a co-located broker assuming a host of "
                + Sizes.bytes(plan.hostMemoryBytes()) + ", static target " + Sizes.bytes(plan.staticTargetBytes()));
        if (plan.instances() > 1) {
            lines.add(plan.instances() + " Memogate instances, client i connecting to instance (i - 1) mod "
                    + plan.instances() + ": with gateways-on each has its own gateways and broker; with fleet they"
                    + " share one set through a private redis-server, one broker elected among them");
        }
        lines.add("order of cells: " + String.join(", ", plan.cells().stream().map(StormPlan.Cell::label).toList()));
        return lines;
    }
}

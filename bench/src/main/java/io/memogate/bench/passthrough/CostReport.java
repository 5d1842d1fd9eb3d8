package io.memogate.bench.passthrough;

import io.memogate.bench.pgbench.QueryMode;
import io.memogate.bench.report.Table;
import io.memogate.bench.targets.TargetKind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * What each target costs per transaction, per client count and query mode: the median over the rounds of TPS, the
 * relay's CPU, and, with {@code --counts}, its system calls (all; socket reads; socket writes; waits for
 * readiness; futex), context switches and bytes allocated. The counts are what to compare on a machine shared with
 * other work, where TPS and CPU time move with the neighbours' load. A second table splits the machine's CPU per
 * transaction between pgbench, the server's processes, the relay and the rest ({@link ProcessCpu}): on a machine
 * the three share, a relay that costs little itself can still cost its peers more wake-ups.
 */
final class CostReport {

    private static final List<String> HEADER = List.of("clients", "mode", "target", "TPS", "relay CPU us/tx",
            "syscalls/tx", "reads/tx", "writes/tx", "epoll waits/tx", "futex/tx", "ctx switches/tx",
            "of them involuntary", "alloc B/tx");

    private static final List<String> SPLIT_HEADER = List.of("clients", "mode", "target", "machine CPU us/tx",
            "pgbench", "server processes", "relay", "of it user mode", "benchmark JVM", "other processes",
            "in no process");

    private final List<CountedRun> runs;
    private final CountWindow window;

    CostReport(List<CountedRun> runs, CountWindow window) {
        this.runs = List.copyOf(runs);
        this.window = window;
    }

    String text() {
        return table().text();
    }

    /** Whether any run could read where the machine's CPU went. */
    boolean hasSplit() {
        return runs.stream().anyMatch(run -> run.split().isPresent());
    }

    /** Where the machine's CPU went per transaction; empty when no run could read it. */
    String splitText() {
        return hasSplit() ? splitTable().text() : "";
    }

    String markdown() {
        return "# memogate bench passthrough: cost per transaction\n\n"
                + "Median over the rounds of each target's runs (TPS: pgbench's figure); the relay's CPU and counts are"
                + " read " + window.describe() + ". Reads and"
                + " writes: read/recvfrom/readv/recvmsg and write/sendto/writev/sendmsg; waits: epoll_wait,"
                + " epoll_pwait, epoll_pwait2, io_uring_enter.\n\n" + table().markdown()
                + (hasSplit() ? "\n## Where the machine's CPU went\n\n"
                + "Median over the rounds, us per transaction over the steady window, from /proc/PID/stat of every"
                + " process and /proc/stat: pgbench and the server's processes by their command names; the relay's"
                + " own process (the benchmark's JVM for the in-JVM targets), and the part of it in user mode (the"
                + " relay's own work; the rest is the kernel's, mostly the system calls any relay makes for the same"
                + " traffic); \"in no process\": the machine's busy"
                + " time no process accounts for (interrupts, soft interrupts, processes that exited).\n\n"
                + splitTable().markdown() : "");
    }

    /**
     * One line per run, in the order they ran: the relay's CPU and the part of it in user mode, per transaction, of
     * each round (empty where not read). With targets restarted each round, the spread of one target's lines is how
     * much its processes differ.
     */
    String csv() {
        StringBuilder csv = new StringBuilder("clients,mode,round,target,tps,relay_cpu_us_per_tx,relay_user_us_per_tx\n");
        for (CountedRun run : runs) {
            csv.append(run.clients()).append(',').append(run.mode().label()).append(',').append(run.round())
                    .append(',').append(run.target().label()).append(',')
                    .append(figure(OptionalDouble.of(run.tps()), "%.1f")).append(',')
                    .append(csvFigure(run.cpuMicrosPerTransaction())).append(',')
                    .append(csvFigure(split(ProcessCpu.CpuSplit::relayUser).apply(run))).append('\n');
        }
        return csv.toString();
    }

    private static String csvFigure(OptionalDouble value) {
        return value.isPresent() ? String.format(Locale.ROOT, "%.2f", value.getAsDouble()) : "";
    }

    private Table splitTable() {
        Table table = new Table(SPLIT_HEADER, 3);
        groups().forEach((key, group) -> table.row(List.of(Integer.toString(key.clients()), key.mode().label(),
                key.target().label(),
                figure(median(group, split(ProcessCpu.CpuSplit::machineBusy)), "%.1f"),
                figure(median(group, split(ProcessCpu.CpuSplit::pgbench)), "%.1f"),
                figure(median(group, split(ProcessCpu.CpuSplit::server)), "%.1f"),
                figure(median(group, split(ProcessCpu.CpuSplit::relay)), "%.1f"),
                figure(median(group, split(ProcessCpu.CpuSplit::relayUser)), "%.1f"),
                figure(median(group, split(ProcessCpu.CpuSplit::benchmark)), "%.1f"),
                figure(median(group, split(ProcessCpu.CpuSplit::others)), "%.1f"),
                figure(median(group, split(ProcessCpu.CpuSplit::unattributed)), "%.1f"))));
        return table;
    }

    private static Function<CountedRun, OptionalDouble> split(ToLongFunction<ProcessCpu.CpuSplit> ticks) {
        return run -> run.split().map(split -> OptionalDouble.of(split.microsPerTransaction(ticks.applyAsLong(split))))
                .orElse(OptionalDouble.empty());
    }

    /** The runs by client count, mode and target, in that order. */
    private Map<Key, List<CountedRun>> groups() {
        Map<Key, List<CountedRun>> groups = new LinkedHashMap<>();
        runs.stream()
                .sorted((a, b) -> a.clients() != b.clients() ? Integer.compare(a.clients(), b.clients())
                        : a.mode() != b.mode() ? a.mode().compareTo(b.mode()) : a.target().compareTo(b.target()))
                .forEach(run -> groups.computeIfAbsent(new Key(run.clients(), run.mode(), run.target()),
                        key -> new ArrayList<>()).add(run));
        return groups;
    }

    private Table table() {
        Table table = new Table(HEADER, 3);
        groups().forEach((key, group) -> table.row(List.of(Integer.toString(key.clients()), key.mode().label(),
                key.target().label(),
                figure(median(group, run -> OptionalDouble.of(run.tps())), "%.0f"),
                figure(median(group, CountedRun::cpuMicrosPerTransaction), "%.1f"),
                figure(median(group, counted(SyscallCounter.ALL)), "%.2f"),
                figure(median(group, counted(SyscallCounter.READS)), "%.2f"),
                figure(median(group, counted(SyscallCounter.WRITES)), "%.2f"),
                figure(median(group, counted(SyscallCounter.WAITS)), "%.2f"),
                figure(median(group, counted("futex")), "%.3f"),
                figure(median(group, run -> run.counts().map(RunCounts::switchesPerTransaction)
                        .orElse(OptionalDouble.empty())), "%.2f"),
                figure(median(group, run -> run.counts().map(RunCounts::involuntarySwitchesPerTransaction)
                        .orElse(OptionalDouble.empty())), "%.2f"),
                figure(median(group, run -> run.counts().map(RunCounts::allocatedPerTransaction)
                        .orElse(OptionalDouble.empty())), "%.0f"))));
        return table;
    }

    private static Function<CountedRun, OptionalDouble> counted(String kind) {
        return counted(List.of(kind));
    }

    private static Function<CountedRun, OptionalDouble> counted(List<String> kinds) {
        return run -> run.counts().map(c -> c.syscallsPerTransaction(kinds))
                .orElse(OptionalDouble.empty());
    }

    /** The median of the values the runs have; empty when none has one. */
    static OptionalDouble median(List<CountedRun> group, Function<CountedRun, OptionalDouble> value) {
        double[] values = group.stream().map(value).filter(OptionalDouble::isPresent)
                .mapToDouble(OptionalDouble::getAsDouble).sorted().toArray();
        if (values.length == 0) {
            return OptionalDouble.empty();
        }
        int middle = values.length / 2;
        return OptionalDouble.of(values.length % 2 == 1 ? values[middle]
                : (values[middle - 1] + values[middle]) / 2);
    }

    private static String figure(OptionalDouble value, String format) {
        return value.isPresent() ? String.format(Locale.ROOT, format, value.getAsDouble()) : "-";
    }

    private record Key(int clients, QueryMode mode, TargetKind target) {
        Key {
            Objects.requireNonNull(mode, "mode");
            Objects.requireNonNull(target, "target");
        }
    }
}

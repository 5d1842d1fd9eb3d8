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

/**
 * What each target costs per transaction, per client count and query mode: the median over the rounds of TPS, the
 * relay's CPU, and, with {@code --counts}, its system calls (all; socket reads; socket writes; waits for
 * readiness; futex), context switches and bytes allocated. The counts are what to compare on a machine shared with
 * other work, where TPS and CPU time move with the neighbours' load.
 */
final class CostReport {

    private static final List<String> HEADER = List.of("clients", "mode", "target", "TPS", "relay CPU us/tx",
            "syscalls/tx", "reads/tx", "writes/tx", "epoll waits/tx", "futex/tx", "ctx switches/tx",
            "of them involuntary", "alloc B/tx");

    private final List<CountedRun> runs;
    private final CountWindow window;

    CostReport(List<CountedRun> runs, CountWindow window) {
        this.runs = List.copyOf(runs);
        this.window = window;
    }

    String text() {
        return table().text();
    }

    String markdown() {
        return "# memogate bench passthrough: cost per transaction\n\n"
                + "Median over the rounds of each target's runs (TPS: pgbench's figure); the relay's CPU and counts are"
                + " read " + window.describe() + ". Reads and"
                + " writes: read/recvfrom/readv/recvmsg and write/sendto/writev/sendmsg; waits: epoll_wait,"
                + " epoll_pwait, epoll_pwait2, io_uring_enter.\n\n" + table().markdown();
    }

    private Table table() {
        Map<Key, List<CountedRun>> groups = new LinkedHashMap<>();
        runs.stream()
                .sorted((a, b) -> a.clients() != b.clients() ? Integer.compare(a.clients(), b.clients())
                        : a.mode() != b.mode() ? a.mode().compareTo(b.mode()) : a.target().compareTo(b.target()))
                .forEach(run -> groups.computeIfAbsent(new Key(run.clients(), run.mode(), run.target()),
                        key -> new ArrayList<>()).add(run));
        Table table = new Table(HEADER, 3);
        groups.forEach((key, group) -> table.row(List.of(Integer.toString(key.clients()), key.mode().label(),
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

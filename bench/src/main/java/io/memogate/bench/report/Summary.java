package io.memogate.bench.report;

import io.memogate.bench.pgbench.PgbenchResult;
import io.memogate.bench.pgbench.QueryMode;
import io.memogate.bench.targets.TargetKind;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Function;
import java.util.stream.IntStream;

/**
 * The figures the report derives: per mode and target the median TPS of its successful runs and its
 * ratio to direct's median; and the comparisons the project set itself: Memogate at least 15% ahead of
 * PgBouncer and within 5% of HAProxy's plain TCP relay (a relay users would choose over either), and with
 * the gateways on within 3% of the gateways off (admission must be nearly free for statements that never
 * wait); the first two also for Memogate on a chosen transport or
 * with one event loop, and those variants against epoll with the default loops; the HAProxy one also
 * against HAProxy with one thread, and that HAProxy against its default threading. The median, not the
 * mean: with a few rounds on a shared machine one disturbed run must not move the figure.
 */
public final class Summary {

    /** A goal of the form numerator / denominator >= goal, per mode. */
    public record Comparison(TargetKind numerator, TargetKind denominator, double goal) {
        public String label() {
            return numerator.label() + " / " + denominator.label();
        }
    }

    public static final List<Comparison> GOALS = List.of(
            // What ships against what a DBA would deploy instead, and against the in-JVM variant it is measured by.
            new Comparison(TargetKind.MEMOGATE_SHIPPED, TargetKind.PGBOUNCER, 1.00),
            new Comparison(TargetKind.MEMOGATE_SHIPPED, TargetKind.HAPROXY, 0.95),
            new Comparison(TargetKind.MEMOGATE_SHIPPED, TargetKind.MEMOGATE, 1.00),
            new Comparison(TargetKind.MEMOGATE, TargetKind.PGBOUNCER, 1.15),
            new Comparison(TargetKind.MEMOGATE, TargetKind.HAPROXY, 0.95),
            new Comparison(TargetKind.MEMOGATE, TargetKind.HAPROXY_ONE_THREAD, 0.95),
            new Comparison(TargetKind.MEMOGATE_GATED, TargetKind.MEMOGATE, 0.97),
            new Comparison(TargetKind.MEMOGATE_SHIPPED, TargetKind.MEMOGATE_SHIPPED_UNGATED, 0.97),
            new Comparison(TargetKind.MEMOGATE_EPOLL, TargetKind.PGBOUNCER, 1.15),
            new Comparison(TargetKind.MEMOGATE_EPOLL, TargetKind.HAPROXY, 0.95),
            new Comparison(TargetKind.MEMOGATE_IO_URING, TargetKind.PGBOUNCER, 1.15),
            new Comparison(TargetKind.MEMOGATE_IO_URING, TargetKind.HAPROXY, 0.95),
            // Not product goals: whether a variant is worth choosing, read as "met" when it is not slower.
            new Comparison(TargetKind.MEMOGATE_IO_URING, TargetKind.MEMOGATE_EPOLL, 1.00),
            new Comparison(TargetKind.MEMOGATE_ONE_LOOP, TargetKind.PGBOUNCER, 1.15),
            new Comparison(TargetKind.MEMOGATE_ONE_LOOP, TargetKind.HAPROXY, 0.95),
            new Comparison(TargetKind.MEMOGATE_ONE_LOOP, TargetKind.MEMOGATE_EPOLL, 1.00),
            new Comparison(TargetKind.MEMOGATE_SHIPPED_ONE_LOOP, TargetKind.PGBOUNCER, 1.00),
            new Comparison(TargetKind.MEMOGATE_SHIPPED_ONE_LOOP, TargetKind.MEMOGATE_SHIPPED, 1.00),
            // The stack's floor: what the proxy's own work costs above a Netty relay that parses nothing, and whether
            // that relay reaches PgBouncer at all (met when it is not slower).
            new Comparison(TargetKind.MEMOGATE_SHIPPED, TargetKind.NETTY_RELAY, 1.00),
            new Comparison(TargetKind.NETTY_RELAY, TargetKind.PGBOUNCER, 1.00),
            // What Memogate adds to a transaction-pooled deployment: met when it adds nothing.
            new Comparison(TargetKind.MEMOGATE_BEHIND_PGBOUNCER, TargetKind.PGBOUNCER_TRANSACTION, 1.00),
            // A change against the build it starts from: met when the change is not slower.
            new Comparison(TargetKind.MEMOGATE_SHIPPED, TargetKind.MEMOGATE_BASELINE, 1.00),
            new Comparison(TargetKind.HAPROXY_ONE_THREAD, TargetKind.HAPROXY, 1.00),
            // The goals again with every relay reaching the server over its Unix socket, and what the socket gains.
            new Comparison(TargetKind.MEMOGATE_UNIX, TargetKind.PGBOUNCER_UNIX, 1.15),
            new Comparison(TargetKind.MEMOGATE_UNIX, TargetKind.HAPROXY_UNIX, 0.95),
            new Comparison(TargetKind.MEMOGATE_UNIX, TargetKind.MEMOGATE, 1.00),
            new Comparison(TargetKind.PGBOUNCER_UNIX, TargetKind.PGBOUNCER, 1.00));

    private final BenchRecord record;

    public Summary(BenchRecord record) {
        this.record = record;
    }

    /** The run of {@code target} in {@code round}, if it was run. */
    public Optional<Measurement> measurement(QueryMode mode, TargetKind target, int round) {
        return record.measurements().stream()
                .filter(m -> m.mode() == mode && m.target() == target && m.round() == round)
                .findFirst();
    }

    public OptionalDouble median(QueryMode mode, TargetKind target) {
        return median(record.measurements().stream()
                .filter(m -> m.mode() == mode && m.target() == target)
                .map(Measurement::result)
                .filter(PgbenchResult.Succeeded.class::isInstance)
                .mapToDouble(result -> ((PgbenchResult.Succeeded) result).tps())
                .toArray());
    }

    private static OptionalDouble median(double[] values) {
        if (values.length == 0) {
            return OptionalDouble.empty();
        }
        double[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return OptionalDouble.of(sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2);
    }

    /** The median over the successful runs of the relaying process's CPU per transaction (µs). */
    public OptionalDouble medianCpuPerTransaction(QueryMode mode, TargetKind target) {
        return medianOf(mode, target, Measurement::cpuMicrosPerTransaction);
    }

    /**
     * The lowest and the highest of the relaying process's CPU per transaction (µs) over the successful runs:
     * how far the rounds spread around the median.
     */
    public Optional<double[]> cpuPerTransactionRange(QueryMode mode, TargetKind target) {
        double[] values = record.measurements().stream()
                .filter(m -> m.mode() == mode && m.target() == target)
                .map(Measurement::cpuMicrosPerTransaction)
                .filter(OptionalDouble::isPresent)
                .mapToDouble(OptionalDouble::getAsDouble)
                .sorted()
                .toArray();
        return values.length == 0 ? Optional.empty() : Optional.of(new double[] {values[0], values[values.length - 1]});
    }

    /** The median over the successful runs of the whole machine's CPU per transaction (µs). */
    public OptionalDouble medianMachineCpuPerTransaction(QueryMode mode, TargetKind target) {
        return medianOf(mode, target, Measurement::machineMicrosPerTransaction);
    }

    /** The median over the successful runs of the share of the machine's CPU time left idle. */
    public OptionalDouble medianIdleShare(QueryMode mode, TargetKind target) {
        return medianOf(mode, target, m -> m.succeeded() ? m.idleShare() : OptionalDouble.empty());
    }

    /** The median of {@code figure} over the runs of {@code target} in {@code mode} that have one. */
    private OptionalDouble medianOf(QueryMode mode, TargetKind target, Function<Measurement, OptionalDouble> figure) {
        return median(record.measurements().stream()
                .filter(m -> m.mode() == mode && m.target() == target)
                .map(figure)
                .filter(OptionalDouble::isPresent)
                .mapToDouble(OptionalDouble::getAsDouble)
                .toArray());
    }

    /**
     * The CPU per transaction a relay may spend to reach {@code goal} times {@code reference}'s
     * throughput on a machine as busy as under the reference. With the cores saturated, throughput is
     * the CPUs' time over the machine's CPU per transaction, so that must fall to the reference's
     * divided by the goal; pgbench and the server are taken to need what they needed under the
     * reference (its machine CPU per transaction less its own), and the relay gets the rest. Negative
     * means no relay could, however little it spent.
     */
    public OptionalDouble relayBudget(QueryMode mode, TargetKind reference, double goal) {
        OptionalDouble machine = medianMachineCpuPerTransaction(mode, reference);
        OptionalDouble own = medianCpuPerTransaction(mode, reference);
        if (machine.isEmpty() || own.isEmpty()) {
            return OptionalDouble.empty();
        }
        double others = machine.getAsDouble() - own.getAsDouble();
        return OptionalDouble.of(machine.getAsDouble() / goal - others);
    }

    public OptionalDouble ratio(QueryMode mode, TargetKind numerator, TargetKind denominator) {
        OptionalDouble top = median(mode, numerator);
        OptionalDouble bottom = median(mode, denominator);
        if (top.isEmpty() || bottom.isEmpty() || bottom.getAsDouble() == 0) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(top.getAsDouble() / bottom.getAsDouble());
    }

    /**
     * The ratio within each round where both ran successfully, lowest first. The two runs of a round
     * are minutes apart at most, so their ratio is spared the drift between rounds; the spread of these
     * ratios shows how far the ratio of medians can be trusted.
     */
    public double[] roundRatios(QueryMode mode, TargetKind numerator, TargetKind denominator) {
        return IntStream.rangeClosed(1, record.rounds())
                .mapToObj(round -> measurement(mode, numerator, round).flatMap(top -> measurement(mode, denominator, round)
                        .filter(bottom -> top.succeeded() && bottom.succeeded())
                        .map(bottom -> tps(top) / tps(bottom))))
                .flatMap(Optional::stream)
                .mapToDouble(Double::doubleValue)
                .sorted()
                .toArray();
    }

    private static double tps(Measurement measurement) {
        return ((PgbenchResult.Succeeded) measurement.result()).tps();
    }

    public OptionalDouble ratioToDirect(QueryMode mode, TargetKind target) {
        return ratio(mode, target, TargetKind.DIRECT);
    }
}

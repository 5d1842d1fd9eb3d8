package io.memogate.bench.passthrough;

import io.memogate.bench.pgbench.Pgbench;
import io.memogate.bench.pgbench.PgbenchInProgress;
import io.memogate.bench.pgbench.PgbenchLoad;
import io.memogate.bench.pgbench.PgbenchProgress;
import io.memogate.bench.pgbench.PgbenchResult;
import io.memogate.bench.pgbench.PgbenchRun;
import io.memogate.bench.targets.Target;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Runs pgbench against one target and reads what its relay spends over the {@link CountWindow} asked for: its CPU
 * time (/proc), and its counts when a {@link CountProbe} is given. Over the steady window the readings are taken
 * while pgbench runs, on progress reports, and each is divided by the transactions pgbench reported between its
 * own two instants; over the whole run, around the pgbench process, by pgbench's transactions.
 */
final class RelayReader {

    /** How long to wait for a report: connecting hundreds of clients on a loaded machine takes seconds. */
    private static final Duration SLACK = Duration.ofSeconds(60);

    /** Starts the counts of one run, or gives none (not asked for, or no relaying process). */
    @FunctionalInterface
    interface Probes {
        Optional<CountProbe> start() throws IOException, InterruptedException;
    }

    private final Target target;
    private final Pgbench pgbench;
    private final Probes probes;

    RelayReader(Target target, Pgbench pgbench, Probes probes) {
        this.target = target;
        this.pgbench = pgbench;
        this.probes = probes;
    }

    RelayRun read(PgbenchLoad load, CountWindow window) throws IOException, InterruptedException {
        return switch (window.forRun(load.seconds())) {
            case WHOLE -> whole(load);
            case STEADY -> steady(load);
        };
    }

    private RelayRun whole(PgbenchLoad load) throws IOException, InterruptedException {
        Optional<CountProbe> probe = probes.start();
        Optional<Duration> cpuBefore = target.cpuTime();
        PgbenchRun run = pgbench.run(target.port(), load);
        Optional<Duration> cpu = cpuBefore.flatMap(before -> target.cpuTime().map(after -> after.minus(before)));
        Optional<CountProbe.Stopped> stopped = probe.isEmpty() ? Optional.empty() : Optional.of(probe.get().stop());
        TransactionCount transactions = run.result() instanceof PgbenchResult.Succeeded ok
                ? TransactionCount.wholeRun(ok.transactions()) : (from, to) -> OptionalDouble.empty();
        return new RelayRun(run, cpu, OptionalDouble.empty(), stopped.map(s -> s.counts(transactions)), Optional.empty());
    }

    private RelayRun steady(PgbenchLoad load) throws IOException, InterruptedException {
        Duration wait = Duration.ofSeconds(load.seconds()).plus(SLACK);
        // pgbench 15's -T counts from its start, connection set-up included: the run ends that long after launch
        // and its own start-up.
        Instant closes = Instant.now().plusSeconds(load.seconds() - CountWindow.SECONDS_AFTER);
        PgbenchInProgress running = pgbench.start(target.port(), load);
        Optional<Reading> from = Optional.empty();
        Optional<CountProbe> probe = Optional.empty();
        if (running.awaitReports(CountWindow.FIRST_REPORT, wait)) {
            from = Optional.of(Reading.now(target));
            probe = probes.start();
        }
        Optional<Reading> to = Optional.empty();
        Optional<CountProbe.Stopped> stopped = Optional.empty();
        if (from.isPresent() && from.get().at().plus(CountWindow.SHORTEST).isBefore(closes)
                && running.nextReportAfter(closes)) {
            to = Optional.of(Reading.now(target));
        }
        if (probe.isPresent()) {
            // Stopped even when the window did not close (pgbench failed): perf stat must not outlive the run.
            CountProbe.Stopped counts = probe.get().stop();
            stopped = to.isPresent() ? Optional.of(counts) : Optional.empty();
        }
        PgbenchRun run = running.finish();
        PgbenchProgress progress = PgbenchProgress.parse(run.command().output());
        TransactionCount transactions = progress::transactionsBetween;
        if (from.isEmpty() || to.isEmpty()) {
            return new RelayRun(run, Optional.empty(), OptionalDouble.empty(), Optional.empty(), Optional.empty());
        }
        Reading start = from.get();
        Reading end = to.get();
        OptionalDouble cpuTransactions = transactions.between(start.at(), end.at());
        Optional<Duration> cpu = cpuTransactions.isEmpty() ? Optional.empty()
                : start.cpu().flatMap(before -> end.cpu().map(after -> after.minus(before)));
        Optional<ProcessCpu.CpuSplit> split = cpuTransactions.isEmpty() ? Optional.empty()
                : start.processes().flatMap(before -> end.processes().map(after -> after.since(before,
                        target.relayPids(), ProcessHandle.current().pid(), cpuTransactions.getAsDouble())));
        return new RelayRun(run, cpu, cpu.isEmpty() ? OptionalDouble.empty() : cpuTransactions,
                stopped.map(s -> s.counts(transactions)), split);
    }

    /** The relay's CPU time at an instant, and every process's. */
    private record Reading(Instant at, Optional<Duration> cpu, Optional<ProcessCpu> processes) {
        static Reading now(Target target) {
            Instant at = Instant.now();
            return new Reading(at, target.cpuTime(), ProcessCpu.read());
        }
    }
}

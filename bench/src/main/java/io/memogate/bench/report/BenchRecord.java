package io.memogate.bench.report;

import io.memogate.bench.pgbench.QueryMode;
import java.util.List;

/**
 * Everything a passthrough run produced, for the writers.
 *
 * @param settings  what was run, one line each (command lines, rounds, warm-up)
 * @param machine   where it ran, one line each
 * @param rounds    how many rounds were planned
 * @param orders    the target order of each round, 1-based round i at index i - 1
 */
public record BenchRecord(List<String> settings, List<String> machine, List<QueryMode> modes, int rounds,
                          List<TargetInfo> targets, List<List<String>> orders, List<Measurement> measurements) {

    public BenchRecord {
        settings = List.copyOf(settings);
        machine = List.copyOf(machine);
        modes = List.copyOf(modes);
        targets = List.copyOf(targets);
        orders = orders.stream().map(List::copyOf).toList();
        measurements = List.copyOf(measurements);
    }

    public boolean allSucceeded() {
        return measurements.stream().allMatch(Measurement::succeeded);
    }
}

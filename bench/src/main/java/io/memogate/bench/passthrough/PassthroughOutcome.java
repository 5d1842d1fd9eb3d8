package io.memogate.bench.passthrough;

import io.memogate.bench.report.BenchRecord;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a passthrough run produced: a record per client count, in the order run, and each successful run's cost
 * per transaction.
 */
record PassthroughOutcome(Map<Integer, BenchRecord> records, List<CountedRun> costs) {

    PassthroughOutcome {
        records = new LinkedHashMap<>(records);
        costs = List.copyOf(costs);
    }
}

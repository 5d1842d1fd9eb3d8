package io.memogate.bench.storm.report;

import io.memogate.bench.storm.load.Attempt;
import io.memogate.bench.storm.load.ErrorKind;
import io.memogate.bench.storm.load.Failure;
import io.memogate.bench.storm.load.Submission;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeMap;

/**
 * The figures of one cell, from its {@link CellRecord}: only what ended inside the measured window counts
 * (an attempt or a query belongs to the moment it ended), so the warm-up and whatever was cut off at the
 * end are left out alike.
 *
 * @param attempts         attempts that ended in the window
 * @param successes        those that succeeded
 * @param errors           those that failed, by kind
 * @param completed        queries that succeeded in the window
 * @param givenUp          queries whose every attempt failed
 * @param queriesPerMinute completed queries per minute of the window
 * @param successPercent   successes / attempts, in percent (NaN without attempts)
 * @param p50Seconds       median latency of completed queries, first attempt to success, retries included
 * @param p95Seconds       95th percentile of the same
 * @param otherErrors      the "other" failures by SQLSTATE and message, to say what they were
 */
public record CellFigures(CellRecord record, long attempts, long successes, Map<ErrorKind, Long> errors, long completed,
                          long givenUp, double queriesPerMinute, double successPercent, OptionalDouble p50Seconds,
                          OptionalDouble p95Seconds, List<SliceFigures> slices, Map<String, Long> otherErrors) {

    public static CellFigures of(CellRecord record) {
        int sliceCount = record.sliceCount();
        long[] sliceAttempts = new long[sliceCount];
        long[] sliceSuccesses = new long[sliceCount];
        long[] sliceCompleted = new long[sliceCount];
        Map<ErrorKind, Long> errors = new EnumMap<>(ErrorKind.class);
        for (ErrorKind kind : ErrorKind.values()) {
            errors.put(kind, 0L);
        }
        Map<String, Long> other = new TreeMap<>();
        long attempts = 0;
        long successes = 0;
        for (Attempt attempt : record.attempts()) {
            if (!record.inWindow(attempt.endNanos())) {
                continue;
            }
            attempts++;
            int slice = record.sliceOf(attempt.endNanos());
            sliceAttempts[slice]++;
            if (attempt.succeeded()) {
                successes++;
                sliceSuccesses[slice]++;
            } else {
                Failure failure = attempt.failure().orElseThrow();
                errors.merge(failure.kind(), 1L, Long::sum);
                if (failure.kind() == ErrorKind.OTHER) {
                    other.merge(failure.sqlState() + " " + failure.message(), 1L, Long::sum);
                }
            }
        }
        long completed = 0;
        long givenUp = 0;
        List<Double> latencies = new ArrayList<>();
        for (Submission submission : record.submissions()) {
            if (!record.inWindow(submission.endNanos())) {
                continue;
            }
            if (submission.succeeded()) {
                completed++;
                sliceCompleted[record.sliceOf(submission.endNanos())]++;
                latencies.add(submission.latencyNanos() / 1e9);
            } else {
                givenUp++;
            }
        }
        latencies.sort(null);
        List<SliceFigures> slices = new ArrayList<>();
        double sliceSeconds = record.sliceNanos() / 1e9;
        double windowSeconds = (record.windowEndNanos() - record.windowStartNanos()) / 1e9;
        for (int i = 0; i < sliceCount; i++) {
            long peak = i < record.slicePeakBytes().size() ? record.slicePeakBytes().get(i) : 0;
            slices.add(new SliceFigures(i + 1, i * sliceSeconds, Math.min((i + 1) * sliceSeconds, windowSeconds),
                    sliceCompleted[i], sliceAttempts[i], sliceSuccesses[i], peak));
        }
        return new CellFigures(record, attempts, successes, errors, completed, givenUp, completed / (windowSeconds / 60),
                attempts == 0 ? Double.NaN : 100.0 * successes / attempts, percentile(latencies, 50),
                percentile(latencies, 95), slices, other);
    }

    /** Nearest rank: the smallest value with at least p% of the values at or below it. */
    static OptionalDouble percentile(List<Double> sorted, int p) {
        if (sorted.isEmpty()) {
            return OptionalDouble.empty();
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.size());
        return OptionalDouble.of(sorted.get(Math.max(1, rank) - 1));
    }

    public long failedAttempts() {
        return attempts - successes;
    }
}

package io.memogate.broker;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

import io.memogate.broker.probe.IoCounters;
import io.memogate.broker.probe.MemorySnapshot;
import io.memogate.broker.probe.PressureCounters;

/**
 * What the server did between two good polls: the differences of the cumulative
 * {@linkplain PressureCounters pressure counters}.
 *
 * @param elapsedNanos time between the two snapshots, > 0
 * @param spilledBytes bytes written to temporary files
 * @param cacheMisses  pages read from outside the data cache
 * @param cacheHits    pages found in the data cache
 * @param io           I/O of client work, when both snapshots carry it
 * @param compileWaits times a compile waited at the server's own compile gates, when both snapshots carry it
 * @param memoryWaitMillis milliseconds tasks waited for memory, when both snapshots carry it
 */
public record IntervalStatistics(long elapsedNanos, long spilledBytes, long cacheMisses, long cacheHits,
                                 Optional<IoCounters> io, OptionalLong compileWaits, OptionalLong memoryWaitMillis) {

    /** The activity of a server that counts no waits for memory. */
    public IntervalStatistics(long elapsedNanos, long spilledBytes, long cacheMisses, long cacheHits,
                              Optional<IoCounters> io) {
        this(elapsedNanos, spilledBytes, cacheMisses, cacheHits, io, OptionalLong.empty(), OptionalLong.empty());
    }

    private static final double NANOS_PER_SECOND = 1e9;

    public IntervalStatistics {
        if (elapsedNanos <= 0) {
            throw new IllegalArgumentException("elapsedNanos must be > 0, was " + elapsedNanos);
        }
        if (spilledBytes < 0 || cacheMisses < 0 || cacheHits < 0) {
            throw new IllegalArgumentException("spilledBytes, cacheMisses and cacheHits must be >= 0, were "
                    + spilledBytes + ", " + cacheMisses + ", " + cacheHits);
        }
        Objects.requireNonNull(io, "io");
        Objects.requireNonNull(compileWaits, "compileWaits");
        Objects.requireNonNull(memoryWaitMillis, "memoryWaitMillis");
    }

    /**
     * The activity from {@code earlier} to {@code later}, or empty when it cannot be known: no time passed
     * between them, or a counter went backwards because the statistics were reset (PostgreSQL:
     * pg_stat_reset, a server restart). An empty interval raises no signal; a made-up zero could.
     */
    public static Optional<IntervalStatistics> between(MemorySnapshot earlier, MemorySnapshot later) {
        PressureCounters before = earlier.pressure();
        PressureCounters after = later.pressure();
        long elapsed = later.takenAtNanos() - earlier.takenAtNanos();
        long spilledBytes = after.spilledBytes() - before.spilledBytes();
        long cacheMisses = after.cacheMisses() - before.cacheMisses();
        long cacheHits = after.cacheHits() - before.cacheHits();
        if (elapsed <= 0 || spilledBytes < 0 || cacheMisses < 0 || cacheHits < 0) {
            return Optional.empty();
        }
        Optional<IoCounters> io = Optional.empty();
        if (before.io().isPresent() && after.io().isPresent()) {
            IoCounters from = before.io().get();
            IoCounters to = after.io().get();
            long reads = to.reads() - from.reads();
            long writes = to.writes() - from.writes();
            long extensions = to.extensions() - from.extensions();
            if (reads >= 0 && writes >= 0 && extensions >= 0) {
                io = Optional.of(new IoCounters(reads, writes, extensions));
            }
        }
        return Optional.of(new IntervalStatistics(elapsed, spilledBytes, cacheMisses, cacheHits, io,
                difference(before.compileWaits(), after.compileWaits()),
                difference(before.memoryWaitMillis(), after.memoryWaitMillis())));
    }

    /** {@code after - before} when both were read and the counter did not go back (SQL Server: a restart). */
    private static OptionalLong difference(OptionalLong before, OptionalLong after) {
        if (before.isEmpty() || after.isEmpty() || after.getAsLong() < before.getAsLong()) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(after.getAsLong() - before.getAsLong());
    }

    /** Spill rate; a rate, not a count, so that intervals of different length compare. */
    public double spilledBytesPerSecond() {
        return spilledBytes * NANOS_PER_SECOND / elapsedNanos;
    }

    /** Milliseconds waited for memory per second, or empty when the server does not count them. */
    public OptionalDouble memoryWaitMillisPerSecond() {
        return memoryWaitMillis.isEmpty() ? OptionalDouble.empty()
                : OptionalDouble.of(memoryWaitMillis.getAsLong() * NANOS_PER_SECOND / elapsedNanos);
    }

    /** cacheHits / (cacheHits + cacheMisses), or empty when no page was accessed. */
    public OptionalDouble hitRatio() {
        long accessed = cacheHits + cacheMisses;
        return accessed == 0 ? OptionalDouble.empty() : OptionalDouble.of((double) cacheHits / accessed);
    }
}

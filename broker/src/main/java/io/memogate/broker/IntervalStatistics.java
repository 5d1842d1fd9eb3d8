package io.memogate.broker;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

import io.memogate.broker.probe.IoCounters;
import io.memogate.broker.probe.MemorySnapshot;

/**
 * What the server did between two good polls: the differences of the cumulative counters.
 *
 * @param elapsedNanos time between the two snapshots, > 0
 * @param tempBytes    bytes written to temporary files
 * @param blocksRead   blocks read from outside the buffer pool
 * @param blocksHit    blocks found in the buffer pool
 * @param io           client-backend I/O, when both snapshots carry it
 */
public record IntervalStatistics(long elapsedNanos, long tempBytes, long blocksRead, long blocksHit,
                                 Optional<IoCounters> io) {

    private static final double NANOS_PER_SECOND = 1e9;

    public IntervalStatistics {
        if (elapsedNanos <= 0) {
            throw new IllegalArgumentException("elapsedNanos must be > 0, was " + elapsedNanos);
        }
        if (tempBytes < 0 || blocksRead < 0 || blocksHit < 0) {
            throw new IllegalArgumentException("tempBytes, blocksRead and blocksHit must be >= 0, were "
                    + tempBytes + ", " + blocksRead + ", " + blocksHit);
        }
        Objects.requireNonNull(io, "io");
    }

    /**
     * The activity from {@code earlier} to {@code later}, or empty when it cannot be known: no time passed
     * between them, or a counter went backwards because the statistics were reset (pg_stat_reset, a
     * server restart). An empty interval raises no signal; a made-up zero could.
     */
    public static Optional<IntervalStatistics> between(MemorySnapshot earlier, MemorySnapshot later) {
        long elapsed = later.takenAtNanos() - earlier.takenAtNanos();
        long tempBytes = later.tempBytes() - earlier.tempBytes();
        long blocksRead = later.blocksRead() - earlier.blocksRead();
        long blocksHit = later.blocksHit() - earlier.blocksHit();
        if (elapsed <= 0 || tempBytes < 0 || blocksRead < 0 || blocksHit < 0) {
            return Optional.empty();
        }
        Optional<IoCounters> io = Optional.empty();
        if (earlier.io().isPresent() && later.io().isPresent()) {
            IoCounters before = earlier.io().get();
            IoCounters after = later.io().get();
            long reads = after.reads() - before.reads();
            long writes = after.writes() - before.writes();
            long extensions = after.extensions() - before.extensions();
            if (reads >= 0 && writes >= 0 && extensions >= 0) {
                io = Optional.of(new IoCounters(reads, writes, extensions));
            }
        }
        return Optional.of(new IntervalStatistics(elapsed, tempBytes, blocksRead, blocksHit, io));
    }

    /** Spill rate; a rate, not a count, so that intervals of different length compare. */
    public double tempBytesPerSecond() {
        return tempBytes * NANOS_PER_SECOND / elapsedNanos;
    }

    /** blocksHit / (blocksHit + blocksRead), or empty when no block was accessed. */
    public OptionalDouble hitRatio() {
        long accessed = blocksHit + blocksRead;
        return accessed == 0 ? OptionalDouble.empty() : OptionalDouble.of((double) blocksHit / accessed);
    }
}

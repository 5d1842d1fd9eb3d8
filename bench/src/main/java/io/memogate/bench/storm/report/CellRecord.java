package io.memogate.bench.storm.report;

import io.memogate.bench.storm.load.Attempt;
import io.memogate.bench.storm.load.ConnectionStyle;
import io.memogate.bench.storm.load.Mode;
import io.memogate.bench.storm.load.Submission;
import java.util.List;
import java.util.Optional;

/**
 * What one cell of the storm produced, raw: everything the figures are computed from.
 *
 * @param order             1 for the cell that ran first
 * @param target            what the clients connected to, in words
 * @param attempts          every attempt recorded, warm-up included; the figures keep those ending in the window
 * @param submissions       likewise for finished submissions
 * @param sliceNanos        width of one time slice
 * @param slicePeakBytes    the server's peak private memory in each slice of the window, in order
 * @param peakBytes         the peak over the window
 * @param kills             SIGKILLs the governor sent during the window
 * @param restarts          crash restarts the server logged during the window
 * @param governorSamples   samples the governor took during the window
 * @param governorLongestGapNanos the longest time between two of them
 * @param gateways          present for the gateways-on mode
 * @param failure           why the cell did not complete, if it did not
 */
public record CellRecord(int order, int clients, ConnectionStyle style, Mode mode, String target, long windowStartNanos,
                         long windowEndNanos, List<Attempt> attempts, List<Submission> submissions, long sliceNanos,
                         List<Long> slicePeakBytes, long peakBytes, int kills, int restarts, int governorSamples,
                         long governorLongestGapNanos, Optional<GatewayFigures> gateways, Optional<String> failure) {

    public CellRecord {
        attempts = List.copyOf(attempts);
        submissions = List.copyOf(submissions);
        slicePeakBytes = List.copyOf(slicePeakBytes);
        if (windowEndNanos - windowStartNanos <= 0 || sliceNanos <= 0) {
            throw new IllegalArgumentException("the window and the slices must have a positive length");
        }
    }

    /** Whether {@code nanos} falls in the measured window [start, end). */
    boolean inWindow(long nanos) {
        return nanos - windowStartNanos >= 0 && nanos - windowEndNanos < 0;
    }

    int sliceCount() {
        return (int) ((windowEndNanos - windowStartNanos + sliceNanos - 1) / sliceNanos);
    }

    /** The slice of a moment inside the window. */
    int sliceOf(long nanos) {
        return (int) ((nanos - windowStartNanos) / sliceNanos);
    }
}

package io.memogate.bench.storm.report;

/**
 * One time slice of a cell, as the paper's figures plot them.
 *
 * @param completed queries that succeeded in the slice (throughput)
 * @param attempts  attempts that ended in the slice, retries included
 * @param successes attempts among them that succeeded (equal to completed: a success ends its query)
 * @param peakBytes the server's peak private memory in the slice
 */
public record SliceFigures(int index, double startSeconds, double endSeconds, long completed, long attempts,
                           long successes, long peakBytes) {

    /** Share of attempts that succeeded, in percent; NaN when there was no attempt to judge. */
    public double reliabilityPercent() {
        return attempts == 0 ? Double.NaN : 100.0 * successes / attempts;
    }
}

package io.memogate.bench.storm.governor;

import java.util.Arrays;

/**
 * Every sample the governor took: when, and the server's total private memory then. Appended by the
 * governor's thread, read by the report after the run; synchronized, since both may overlap at the end.
 */
public final class MemoryTrace {

    private long[] nanos = new long[1024];
    private long[] totals = new long[1024];
    private int size;

    synchronized void add(long atNanos, long totalBytes) {
        if (size == nanos.length) {
            nanos = Arrays.copyOf(nanos, size * 2);
            totals = Arrays.copyOf(totals, size * 2);
        }
        nanos[size] = atNanos;
        totals[size] = totalBytes;
        size++;
    }

    /** The largest total sampled in [from, to), or 0 when no sample fell in it. */
    public synchronized long peak(long fromNanos, long toNanos) {
        long peak = 0;
        for (int i = 0; i < size; i++) {
            if (nanos[i] - fromNanos >= 0 && nanos[i] - toNanos < 0) {
                peak = Math.max(peak, totals[i]);
            }
        }
        return peak;
    }

    /** Samples taken in [from, to). */
    public synchronized int samples(long fromNanos, long toNanos) {
        int count = 0;
        for (int i = 0; i < size; i++) {
            if (nanos[i] - fromNanos >= 0 && nanos[i] - toNanos < 0) {
                count++;
            }
        }
        return count;
    }

    /**
     * The longest time between consecutive samples in [from, to): how stale the governor's view could
     * get, which is what makes it an OOM killer and not a reporter.
     */
    public synchronized long longestGapNanos(long fromNanos, long toNanos) {
        long longest = 0;
        for (int i = 1; i < size; i++) {
            if (nanos[i - 1] - fromNanos >= 0 && nanos[i] - toNanos < 0) {
                longest = Math.max(longest, nanos[i] - nanos[i - 1]);
            }
        }
        return longest;
    }
}

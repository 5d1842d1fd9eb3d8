package io.memogate.bench.accuracy.mariadb;

import io.memogate.proxy.calibrate.mysql.OptimizerProbe;
import java.sql.SQLException;
import java.util.Arrays;

/**
 * A statement's optimizer time measured again when it is short. A search of well under a millisecond is mostly
 * the statement's fixed cost (parse, open, setup) and the clock's granularity, so one EXPLAIN's CPU time ranks
 * such statements by noise; the median of several does not. A statement at or above {@code repeatBelow} is
 * measured once: its time is the search's, and repeating it would only lengthen the run. The memory is the first
 * measurement's (the arena's high-water mark does not vary between runs of one statement).
 */
final class SteadyTiming {

    /** One measurement of a statement: {@link OptimizerProbe#measure} bound to it. */
    @FunctionalInterface
    interface Measurement {
        OptimizerProbe.Measured take() throws SQLException;
    }

    private final double repeatBelowSeconds;
    private final int times;

    /**
     * @param repeatBelowSeconds a first measurement shorter than this is repeated
     * @param times how many measurements such a statement gets in all, at least 1; the median is kept
     */
    SteadyTiming(double repeatBelowSeconds, int times) {
        if (times < 1) {
            throw new IllegalArgumentException("a statement is measured at least once, was asked " + times);
        }
        this.repeatBelowSeconds = repeatBelowSeconds;
        this.times = times;
    }

    /** @throws SQLException as the measurement throws it, on the first run or a repeat */
    OptimizerProbe.Measured measure(Measurement measurement) throws SQLException {
        OptimizerProbe.Measured first = measurement.take();
        if (first.seconds() >= repeatBelowSeconds || times == 1) {
            return first;
        }
        double[] seconds = new double[times];
        seconds[0] = first.seconds();
        for (int i = 1; i < times; i++) {
            seconds[i] = measurement.take().seconds();
        }
        return new OptimizerProbe.Measured(median(seconds), first.bytes());
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }
}

package io.memogate.bench.accuracy;

import io.memogate.proxy.calibrate.RankCorrelation;
import java.util.Arrays;
import java.util.Random;

/**
 * How far a Spearman correlation over a few dozen statements can be trusted: the 5th and 95th percentiles of the
 * correlation over bootstrap resamples of the same statements (as many drawn, with replacement), seeded so that a
 * report says the same each time it is written. A cell of the random corpus with 21 statements above 1 MiB at 0.935
 * spans about 0.83-0.97, so a goal of 0.95 cannot tell it from a cell at 0.96; the six seeds' 152 statements
 * together at 0.970 span 0.956-0.977 (bench/log/accuracy.md).
 *
 * @param low the 5th percentile; NaN when fewer than three statements give no interval worth printing
 * @param high the 95th percentile; NaN likewise
 */
record SpearmanInterval(double low, double high) {

    static final int RESAMPLES = 2_000;
    private static final long SEED = 1;

    /** The interval of {@code RankCorrelation.spearman(measured, estimated)}. */
    static SpearmanInterval of(double[] measured, double[] estimated) {
        if (measured.length != estimated.length) {
            throw new IllegalArgumentException(measured.length + " measurements against " + estimated.length);
        }
        int n = measured.length;
        if (n < 3) {
            return new SpearmanInterval(Double.NaN, Double.NaN);
        }
        Random random = new Random(SEED);
        double[] correlations = new double[RESAMPLES];
        int kept = 0;
        double[] x = new double[n];
        double[] y = new double[n];
        for (int r = 0; r < RESAMPLES; r++) {
            for (int i = 0; i < n; i++) {
                int pick = random.nextInt(n);
                x[i] = measured[pick];
                y[i] = estimated[pick];
            }
            double rho = RankCorrelation.spearman(x, y);
            // A resample that drew one statement over and over has no ranks to correlate.
            if (!Double.isNaN(rho)) {
                correlations[kept++] = rho;
            }
        }
        if (kept == 0) {
            return new SpearmanInterval(Double.NaN, Double.NaN);
        }
        double[] sorted = Arrays.copyOf(correlations, kept);
        Arrays.sort(sorted);
        return new SpearmanInterval(percentile(sorted, 0.05), percentile(sorted, 0.95));
    }

    private static double percentile(double[] sorted, double fraction) {
        return sorted[(int) Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))];
    }
}

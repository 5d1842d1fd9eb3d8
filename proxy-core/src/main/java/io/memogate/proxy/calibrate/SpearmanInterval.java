package io.memogate.proxy.calibrate;

import java.util.Arrays;
import java.util.Locale;
import java.util.Random;

/**
 * How far a {@link RankCorrelation#spearman Spearman correlation} over a few dozen statements can be trusted: the
 * 5th and 95th percentiles of the correlation over bootstrap resamples of the same statements (as many drawn, with
 * replacement), seeded so that a report says the same each time it is written. A cell of the accuracy benchmark's
 * random corpus with 21 statements above 1 MiB at 0.935 spans about 0.83-0.97, so a goal of 0.95 cannot tell it
 * from a cell at 0.96; six such cells' 152 statements together at 0.970 span 0.957-0.977 (bench/log/accuracy.md).
 * A calibration on a handful of one's own statements gets its figure with the same caution.
 *
 * @param low the 5th percentile; NaN for fewer than {@link #FEWEST} statements, whose resamples repeat too few
 *     values to say anything
 * @param high the 95th percentile; NaN likewise
 */
public record SpearmanInterval(double low, double high) {

    /** Statements below which there is no interval. */
    public static final int FEWEST = 5;
    private static final int RESAMPLES = 2_000;
    private static final long SEED = 1;
    private static final SpearmanInterval NONE = new SpearmanInterval(Double.NaN, Double.NaN);

    /** The interval of {@code RankCorrelation.spearman(measured, estimated)}. */
    public static SpearmanInterval of(double[] measured, double[] estimated) {
        if (measured.length != estimated.length) {
            throw new IllegalArgumentException(measured.length + " measurements against " + estimated.length);
        }
        int n = measured.length;
        if (n < FEWEST) {
            return NONE;
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
            return NONE;
        }
        double[] sorted = Arrays.copyOf(correlations, kept);
        Arrays.sort(sorted);
        return new SpearmanInterval(percentile(sorted, 0.05), percentile(sorted, 0.95));
    }

    /** {@code 0.957-0.977}, or {@code n/a} where there is no interval. */
    public String describe() {
        return Double.isNaN(low) ? "n/a" : String.format(Locale.ROOT, "%.3f-%.3f", low, high);
    }

    private static double percentile(double[] sorted, double fraction) {
        return sorted[(int) Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))];
    }
}

package io.memogate.proxy.calibrate;

import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * Spearman's rank correlation: Pearson's correlation of the ranks, tied values sharing the mean of the
 * ranks they span (so that two estimates equal by construction, e.g. the same shape written twice,
 * neither gain nor lose). Whether the estimator orders statements as the planner does is what
 * admission needs: the gateways compare estimates with each other and with thresholds.
 */
public final class RankCorrelation {

    private RankCorrelation() {
    }

    /** In [-1, 1]; NaN when there are fewer than two values or one side has no spread at all. */
    public static double spearman(double[] x, double[] y) {
        if (x.length != y.length) {
            throw new IllegalArgumentException(x.length + " values against " + y.length);
        }
        if (x.length < 2) {
            return Double.NaN;
        }
        return pearson(ranks(x), ranks(y));
    }

    /** Ranks from 1, ties given their mean rank. */
    static double[] ranks(double[] values) {
        Integer[] order = IntStream.range(0, values.length).boxed().toArray(Integer[]::new);
        Arrays.sort(order, Comparator.comparingDouble(i -> values[i]));
        double[] ranks = new double[values.length];
        int start = 0;
        while (start < order.length) {
            int end = start;
            while (end + 1 < order.length && values[order[end + 1]] == values[order[start]]) {
                end++;
            }
            double mean = (start + end) / 2.0 + 1;
            for (int k = start; k <= end; k++) {
                ranks[order[k]] = mean;
            }
            start = end + 1;
        }
        return ranks;
    }

    private static double pearson(double[] x, double[] y) {
        double meanX = Arrays.stream(x).average().orElseThrow();
        double meanY = Arrays.stream(y).average().orElseThrow();
        double sxy = 0;
        double sxx = 0;
        double syy = 0;
        for (int i = 0; i < x.length; i++) {
            sxy += (x[i] - meanX) * (y[i] - meanY);
            sxx += (x[i] - meanX) * (x[i] - meanX);
            syy += (y[i] - meanY) * (y[i] - meanY);
        }
        return sxx == 0 || syy == 0 ? Double.NaN : sxy / Math.sqrt(sxx * syy);
    }
}

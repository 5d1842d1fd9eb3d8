package io.memogate.proxy.postgres.calibrate;

import io.memogate.estimator.postgres.MemoryCoefficients;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.IntStream;
import io.memogate.proxy.calibrate.NonNegativeLeastSquares;

/**
 * Fits {@link MemoryCoefficients} to measurements: non-negative least squares of measured bytes on the
 * memory model's terms, each row weighted by 1/measured so that a 60 kB statement's relative error
 * counts as much as a 500 MB one's (plain least squares is ruled by the largest rows, see
 * {@link MemoryCoefficients}). Non-negative because a negative cost per join pair would make larger
 * searches look cheaper, and the model's record refuses it anyway.
 *
 * <p>A term that fewer than {@link #MIN_SUPPORT} rows have (GEQO's genes when nothing ran GEQO, first-row
 * join pairs when nothing had a LIMIT) cannot be fitted: it keeps its starting value, and its share of each
 * row is subtracted before the others are fitted.
 *
 * @param coefficients the result
 * @param fitted names ({@link MemoryCoefficients#NAMES}) of the coefficients fitted to the rows
 * @param kept names of those that kept their starting value for want of support
 */
public record CoefficientFit(MemoryCoefficients coefficients, List<String> fitted, List<String> kept) {

    /** Rows a term must appear in (be non-zero) to be fitted. */
    public static final int MIN_SUPPORT = 2;

    public CoefficientFit {
        Objects.requireNonNull(coefficients, "coefficients");
        fitted = List.copyOf(fitted);
        kept = List.copyOf(kept);
    }

    /**
     * @param rows the measurements; none may be empty of terms (bypassed statements are not planned)
     * @param start the coefficients a term without support keeps (usually {@link MemoryCoefficients#DEFAULTS})
     */
    public static CoefficientFit of(List<Measurement> rows, MemoryCoefficients start) {
        int n = MemoryCoefficients.NAMES.size();
        double[] result = start.toArray();
        boolean[] supported = new boolean[n];
        for (int j = 0; j < n; j++) {
            int column = j;
            supported[j] = rows.stream().filter(r -> r.terms().toArray()[column] > 0).count() >= MIN_SUPPORT;
        }
        int[] free = IntStream.range(0, n).filter(j -> supported[j]).toArray();
        if (free.length > 0) {
            double[][] a = new double[rows.size()][free.length];
            double[] b = new double[rows.size()];
            for (int i = 0; i < rows.size(); i++) {
                double[] terms = rows.get(i).terms().toArray();
                double measured = rows.get(i).measuredBytes();
                double rest = measured;
                for (int j = 0; j < n; j++) {
                    if (!supported[j]) {
                        rest -= result[j] * terms[j];
                    }
                }
                for (int k = 0; k < free.length; k++) {
                    a[i][k] = terms[free[k]] / measured;
                }
                b[i] = rest / measured;
            }
            double[] x = NonNegativeLeastSquares.solve(a, b);
            for (int k = 0; k < free.length; k++) {
                result[free[k]] = x[k];
            }
        }
        List<String> fitted = new ArrayList<>();
        List<String> kept = new ArrayList<>();
        for (int j = 0; j < n; j++) {
            (supported[j] ? fitted : kept).add(MemoryCoefficients.NAMES.get(j));
        }
        return new CoefficientFit(MemoryCoefficients.of(result), fitted, kept);
    }
}

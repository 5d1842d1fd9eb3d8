package io.memogate.proxy.calibrate;

import java.util.stream.IntStream;

/**
 * Non-negative least squares: the x >= 0 that minimises |Ax - b|, by Lawson and Hanson's active-set
 * algorithm ("Solving Least Squares Problems", 1974, chapter 23, algorithm NNLS). Meant for a handful
 * of unknowns (the memory model has six), so each inner step solves the passive columns' normal
 * equations directly; columns are scaled to unit norm first, since the model's terms range from 1
 * (statements) to millions (join pairs), and scaled back at the end, which keeps x >= 0.
 *
 * <p>No library on the classpath does this (Commons Math has none), and it is forty lines.
 */
public final class NonNegativeLeastSquares {

    private static final double TOLERANCE = 1e-12;

    private NonNegativeLeastSquares() {
    }

    /**
     * @param a rows of the system, each of the same length n
     * @param b right-hand side, one per row
     * @return x of length n, every element >= 0; a column of zeros gets 0
     */
    public static double[] solve(double[][] a, double[] b) {
        int m = a.length;
        if (m != b.length) {
            throw new IllegalArgumentException(m + " rows but " + b.length + " right-hand sides");
        }
        int n = m == 0 ? 0 : a[0].length;
        double[] scale = new double[n];
        for (double[] row : a) {
            if (row.length != n) {
                throw new IllegalArgumentException("rows of different lengths: " + n + " and " + row.length);
            }
            for (int j = 0; j < n; j++) {
                scale[j] += row[j] * row[j];
            }
        }
        double[][] s = new double[m][n];
        for (int j = 0; j < n; j++) {
            scale[j] = Math.sqrt(scale[j]);
            for (int i = 0; i < m; i++) {
                s[i][j] = scale[j] > 0 ? a[i][j] / scale[j] : 0;
            }
        }
        double[] x = activeSet(s, b, scale);
        for (int j = 0; j < n; j++) {
            x[j] = scale[j] > 0 ? x[j] / scale[j] : 0;
        }
        return x;
    }

    /** Lawson-Hanson on columns of unit norm; zero columns ({@code scale} 0) never enter the passive set. */
    private static double[] activeSet(double[][] a, double[] b, double[] scale) {
        int n = scale.length;
        double[] x = new double[n];
        boolean[] passive = new boolean[n];
        for (int iteration = 0; iteration < 30 * (n + 1); iteration++) {
            double[] w = gradient(a, b, x);
            int entering = -1;
            for (int j = 0; j < n; j++) {
                if (!passive[j] && scale[j] > 0 && w[j] > TOLERANCE && (entering < 0 || w[j] > w[entering])) {
                    entering = j;
                }
            }
            if (entering < 0) {
                return x; // Kuhn-Tucker conditions hold
            }
            passive[entering] = true;
            while (true) {
                double[] z = leastSquares(a, b, passive);
                double alpha = 1;
                boolean feasible = true;
                for (int j = 0; j < n; j++) {
                    if (passive[j] && z[j] <= 0) {
                        feasible = false;
                        alpha = Math.min(alpha, x[j] / (x[j] - z[j]));
                    }
                }
                if (feasible) {
                    x = z;
                    break;
                }
                for (int j = 0; j < n; j++) {
                    x[j] += alpha * (z[j] - x[j]);
                    if (passive[j] && x[j] <= TOLERANCE) {
                        passive[j] = false;
                        x[j] = 0;
                    }
                }
            }
        }
        return x; // cycling, in theory only; x is feasible and no worse than where it started
    }

    /** A^T (b - Ax): how the residual would shrink along each column. */
    private static double[] gradient(double[][] a, double[] b, double[] x) {
        int n = x.length;
        double[] w = new double[n];
        for (int i = 0; i < a.length; i++) {
            double residual = b[i];
            for (int j = 0; j < n; j++) {
                residual -= a[i][j] * x[j];
            }
            for (int j = 0; j < n; j++) {
                w[j] += a[i][j] * residual;
            }
        }
        return w;
    }

    /**
     * Unconstrained least squares on the passive columns (the others held at 0): the normal equations,
     * solved by Gaussian elimination with partial pivoting. A column dependent on the others (a pivot
     * that vanishes) gets 0, which NNLS then treats like any other non-positive value.
     */
    private static double[] leastSquares(double[][] a, double[] b, boolean[] passive) {
        int n = passive.length;
        int[] columns = IntStream.range(0, n).filter(j -> passive[j]).toArray();
        int k = columns.length;
        double[][] normal = new double[k][k + 1];
        for (int i = 0; i < a.length; i++) {
            double[] row = a[i];
            for (int p = 0; p < k; p++) {
                for (int q = 0; q < k; q++) {
                    normal[p][q] += row[columns[p]] * row[columns[q]];
                }
                normal[p][k] += row[columns[p]] * b[i];
            }
        }
        double[] solution = gauss(normal);
        double[] z = new double[n];
        for (int p = 0; p < k; p++) {
            z[columns[p]] = solution[p];
        }
        return z;
    }

    /** Solves the k x (k+1) augmented system in place. */
    private static double[] gauss(double[][] m) {
        int k = m.length;
        boolean[] dependent = new boolean[k];
        for (int col = 0; col < k; col++) {
            int pivot = col;
            for (int r = col + 1; r < k; r++) {
                if (Math.abs(m[r][col]) > Math.abs(m[pivot][col])) {
                    pivot = r;
                }
            }
            double[] swap = m[col];
            m[col] = m[pivot];
            m[pivot] = swap;
            if (Math.abs(m[col][col]) < 1e-10) { // columns have unit norm: this is a dependent column
                dependent[col] = true;
                continue;
            }
            for (int r = 0; r < k; r++) {
                if (r != col) {
                    double f = m[r][col] / m[col][col];
                    for (int c = col; c <= k; c++) {
                        m[r][c] -= f * m[col][c];
                    }
                }
            }
        }
        double[] x = new double[k];
        for (int p = 0; p < k; p++) {
            x[p] = dependent[p] ? 0 : m[p][k] / m[p][p];
        }
        return x;
    }
}

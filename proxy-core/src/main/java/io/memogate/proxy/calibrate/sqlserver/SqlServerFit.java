package io.memogate.proxy.calibrate.sqlserver;

import io.memogate.estimator.CompileEstimate;
import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.planner.MemoryTerms;
import io.memogate.estimator.sqlserver.SqlServerCoefficients;
import io.memogate.estimator.sqlserver.SqlServerDialect;
import io.memogate.proxy.calibrate.NonNegativeLeastSquares;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * SQL Server's coefficients fitted to compiles a server recorded (showplans' {@code CompileMemory}, Query Store's
 * {@code avg_compile_memory_kb}). The task budget is a cap, not a weight: for each budget of a ladder the
 * statements' terms are counted under it and the byte coefficients fitted by non-negative least squares, each row
 * weighted by 1 / max(measured, 100 kB) so that large and small compiles count alike in relative error; the
 * budget with the least weighted error wins. A coefficient whose term no statement has keeps its starting value.
 */
public final class SqlServerFit {

    /** Below this, relative errors of small statements would outweigh everything else. */
    private static final double MEMORY_FLOOR_BYTES = 100_000;
    private static final double[] BUDGETS = {16, 24, 32, 48, 64, 96, 112, 128, 192, 256, 384, 512, 1024};

    /** One compile: a statement's text and the bytes the server recorded for it. */
    public record Observation(String statement, double bytes) {
    }

    /** The fitted coefficients, and the weighted error they leave (for a report). */
    public record Fit(SqlServerCoefficients coefficients, double weightedError) {
    }

    private SqlServerFit() {
    }

    /** The coefficients {@code observations} call for, from {@code start}; {@code start} with fewer than three. */
    public static Fit fit(List<Observation> observations, SqlServerCoefficients start) {
        Fit best = new Fit(start, error(observations, start));
        if (observations.size() < 3) {
            return best;
        }
        for (double budget : BUDGETS) {
            SqlServerCoefficients counting = withBudget(start, budget);
            CompileEstimator estimator = new CompileEstimator(new SqlServerDialect(counting));
            List<double[]> terms = new ArrayList<>();
            for (Observation o : observations) {
                terms.add(columns(estimator.estimate(o.statement(), null)));
            }
            SqlServerCoefficients fitted = solve(terms, observations, counting);
            double error = error(observations, fitted);
            if (error < best.weightedError()) {
                best = new Fit(fitted, error);
            }
        }
        return best;
    }

    /**
     * The terms the coefficients weigh, in the order of {@link #coefficients}: statements, tables, explored
     * pairs, tokens, list constants, blocks, the batch's other statements.
     */
    private static double[] columns(CompileEstimate e) {
        MemoryTerms t = e.terms();
        return new double[] {t.statements(), t.relations(), t.joinPairs(), t.tokens(),
                t.listElements() + t.valueCells(),
                t.blocks() + t.setOperationBranches(), t.otherStatements()};
    }

    private static double[] coefficients(SqlServerCoefficients c) {
        return new double[] {c.fixedBytes(), c.bytesPerRelation(), c.bytesPerExploredPair(), c.bytesPerToken(),
                c.bytesPerListElement(), c.bytesPerBlock(), c.bytesPerOtherStatement()};
    }

    /** Fits the columns some statement has; the others keep {@code start}'s value, their share taken out first. */
    private static SqlServerCoefficients solve(List<double[]> terms, List<Observation> observations,
                                               SqlServerCoefficients start) {
        double[] kept = coefficients(start);
        int width = kept.length;
        boolean[] fitted = new boolean[width];
        for (double[] row : terms) {
            for (int j = 0; j < width; j++) {
                fitted[j] |= row[j] > 0;
            }
        }
        int[] columns = IntStream.range(0, width).filter(j -> fitted[j]).toArray();
        double[][] a = new double[terms.size()][columns.length];
        double[] b = new double[terms.size()];
        for (int i = 0; i < terms.size(); i++) {
            double measured = observations.get(i).bytes();
            double weight = 1 / Math.max(measured, MEMORY_FLOOR_BYTES);
            double rest = 0;
            for (int j = 0; j < width; j++) {
                rest += fitted[j] ? 0 : kept[j] * terms.get(i)[j];
            }
            for (int k = 0; k < columns.length; k++) {
                a[i][k] = terms.get(i)[columns[k]] * weight;
            }
            b[i] = (measured - rest) * weight;
        }
        double[] x = NonNegativeLeastSquares.solve(a, b);
        for (int k = 0; k < columns.length; k++) {
            kept[columns[k]] = x[k];
        }
        return new SqlServerCoefficients(kept[0], kept[1], kept[2], start.exploredPairBudget(), kept[3], kept[4],
                kept[5], kept[6]);
    }

    /** The root mean square of (predicted - measured) / max(measured, 100 kB). */
    public static double error(List<Observation> observations, SqlServerCoefficients c) {
        CompileEstimator estimator = new CompileEstimator(new SqlServerDialect(c));
        return Math.sqrt(observations.stream().mapToDouble(o -> {
            double relative = (estimator.estimate(o.statement(), null).estimatedBytes() - o.bytes())
                    / Math.max(o.bytes(), MEMORY_FLOOR_BYTES);
            return relative * relative;
        }).average().orElse(0));
    }

    private static SqlServerCoefficients withBudget(SqlServerCoefficients c, double budget) {
        return new SqlServerCoefficients(c.fixedBytes(), c.bytesPerRelation(), c.bytesPerExploredPair(), budget,
                c.bytesPerToken(), c.bytesPerListElement(), c.bytesPerBlock(), c.bytesPerOtherStatement());
    }
}

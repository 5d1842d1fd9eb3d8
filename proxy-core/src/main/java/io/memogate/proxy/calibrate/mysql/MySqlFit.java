package io.memogate.proxy.calibrate.mysql;

import io.memogate.estimator.CompileEstimate;
import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.mysql.MySqlCoefficients;
import io.memogate.estimator.mysql.MySqlDialect;
import io.memogate.estimator.mysql.OptimizerSettings;
import io.memogate.estimator.planner.MemoryTerms;
import io.memogate.proxy.calibrate.NonNegativeLeastSquares;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * MySQL's coefficients fitted to measurements. Memory: non-negative least squares of the measured bytes on the
 * statement's tokens (an IN list value and its comma two), tables and linked pairs, each row weighted by
 * 1 / max(measured, 100 kB) so that large and small statements count alike in relative error. Time: the
 * geometric mean of measured / counted over the statements whose count is exact and whose time the server's
 * clock resolves (at least a millisecond): unpruned searches for the time per partial order, pruned ones for
 * the time per candidate. A coefficient with nothing to fit it keeps its starting value.
 */
public final class MySqlFit {

    /** Below this, relative errors of small statements would outweigh everything else. */
    private static final double MEMORY_FLOOR_BYTES = 100_000;
    /** Shorter times are mostly the statement's round trip and parse, not its search. */
    private static final double SHORTEST_FITTED_SECONDS = 0.001;
    /** Counting coefficients: each search's time in "seconds" is then its count of partial orders or candidates. */
    private static final MySqlCoefficients COUNTING = new MySqlCoefficients(0, 0, 0, 1, 1);

    /** One statement measured: what the model counts for it, and what the server spent. */
    public record Observation(OptimizerCase statement, double count, double tokens, double tables,
                              double linkedPairs, double seconds, OptionalLong bytes) {
    }

    private final CompileEstimator counting = new CompileEstimator(new MySqlDialect(COUNTING,
            OptimizerSettings.MARIADB_DEFAULTS));

    /** What the model counts for {@code statement}, with what was measured of it. */
    public Observation observe(OptimizerCase statement, OptimizerProbe.Measured measured) {
        CompileEstimate estimate = counting.estimate(statement.sql(), statement.settings());
        MemoryTerms t = estimate.terms();
        double tokens = t.tokens() + 2 * (t.listElements() + t.valueRows() + t.valueCells());
        return new Observation(statement, estimate.searchSeconds(), tokens, t.relations(), t.extraJoinClauses(),
                measured.seconds(), measured.bytes());
    }

    /** The coefficients {@code observations} call for, from {@code start}. */
    public static MySqlCoefficients fit(List<Observation> observations, MySqlCoefficients start) {
        double[] memory = memory(observations, start);
        double perPlan = timePerCount(observations, false, start.secondsPerPlan());
        double perCandidate = timePerCount(observations, true, start.secondsPerPrunedCandidate());
        return new MySqlCoefficients(memory[0], memory[1], memory[2], perPlan, perCandidate);
    }

    private static double[] memory(List<Observation> observations, MySqlCoefficients start) {
        List<double[]> rows = new ArrayList<>();
        List<Double> measured = new ArrayList<>();
        for (Observation o : observations) {
            if (o.bytes().isPresent() && o.tokens() + o.tables() > 0) { // a bypassed statement has no terms
                double weight = 1 / Math.max(o.bytes().getAsLong(), MEMORY_FLOOR_BYTES);
                rows.add(new double[] {o.tokens() * weight, o.tables() * weight, o.linkedPairs() * weight});
                measured.add(o.bytes().getAsLong() * weight);
            }
        }
        if (rows.size() < 3) {
            return new double[] {start.bytesPerToken(), start.bytesPerTable(), start.bytesPerLinkedPair()};
        }
        return NonNegativeLeastSquares.solve(rows.toArray(double[][]::new),
                measured.stream().mapToDouble(Double::doubleValue).toArray());
    }

    private static double timePerCount(List<Observation> observations, boolean pruned, double start) {
        double logs = 0;
        int n = 0;
        for (Observation o : observations) {
            boolean isPruned = o.statement().settings().pruneLevel() > 0;
            if (isPruned == pruned && o.statement().exactCount() && o.count() > 0
                    && o.seconds() >= SHORTEST_FITTED_SECONDS) {
                logs += Math.log(o.seconds() / o.count());
                n++;
            }
        }
        return n == 0 ? start : Math.exp(logs / n);
    }

    /** The model's time for {@code o} under {@code c}. */
    public static double seconds(Observation o, MySqlCoefficients c) {
        return o.count() * (o.statement().settings().pruneLevel() > 0 ? c.secondsPerPrunedCandidate()
                : c.secondsPerPlan());
    }

    /** The model's memory for {@code o} under {@code c}. */
    public static double bytes(Observation o, MySqlCoefficients c) {
        return o.tokens() * c.bytesPerToken() + o.tables() * c.bytesPerTable() + o.linkedPairs() * c.bytesPerLinkedPair();
    }
}

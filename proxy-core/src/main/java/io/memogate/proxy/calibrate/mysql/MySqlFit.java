package io.memogate.proxy.calibrate.mysql;

import io.memogate.estimator.Catalog;
import io.memogate.estimator.CompileEstimate;
import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.PreparedStatementTexts;
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
 * statement's tokens (an IN list value and its comma two), tables, linked pairs, squares of its searches' tables
 * and cubes of their equality classes ({@code MemoryTerms}), each row weighted by
 * 1 / max(measured, 100 kB) so that large and small statements count alike in relative error. Time: the
 * geometric mean of measured / counted over the statements whose count is exact and whose time the server's
 * clock resolves (at least a millisecond): unpruned searches for the time per partial order, pruned ones for
 * the time per candidate. Where the tables' statistics were read, the search replayed on them
 * ({@code CostBoundSearch}) gives the extensions priced, the key lookups they weighed and the tables searched,
 * and the time per extension, per lookup and per table are fitted by non-negative least squares on them (the
 * lookups told apart from the extensions only where the corpus joins tables both with and without an index on
 * the join columns, as calibrate's does), each statement weighted by 1 / max(measured,
 * 0.5 ms) so that short and long searches count alike in relative error. A coefficient with nothing to fit it
 * keeps its starting value.
 */
public final class MySqlFit {

    /** Below this, relative errors of small statements would outweigh everything else. */
    private static final double MEMORY_FLOOR_BYTES = 100_000;
    /** Shorter times are mostly the statement's round trip and parse, not its search. */
    private static final double SHORTEST_FITTED_SECONDS = 0.001;
    /** Below this, a replayed search's time is mostly the statement's round trip. */
    private static final double TIME_FLOOR_SECONDS = 0.0005;
    /**
     * Counting coefficients: each search's time in "seconds" is then its count of partial orders or candidates.
     * Memory keeps the built-in coefficients, so that a statement of one table takes the bypass or is estimated by
     * its size as the proxy decides it, and keeps its terms when it is estimated; with none every such statement
     * would be a bypass, without terms.
     */
    private static final MySqlCoefficients COUNTING = new MySqlCoefficients(MySqlCoefficients.DEFAULTS.bytesPerToken(),
            MySqlCoefficients.DEFAULTS.bytesPerTable(), MySqlCoefficients.DEFAULTS.bytesPerLinkedPair(), 1, 1, 0, 0, 0,
            MySqlCoefficients.DEFAULTS.bytesPerTableSquared(), MySqlCoefficients.DEFAULTS.bytesPerEqualityClassCube());
    /** Counting the extensions a replayed search prices (0 where the search is not replayed). */
    private static final MySqlCoefficients PRICED = new MySqlCoefficients(0, 0, 0, 0, 0, 1, 0, 0);
    /** Counting the tables of replayed searches. */
    private static final MySqlCoefficients SEARCHED = new MySqlCoefficients(0, 0, 0, 0, 0, 0, 1, 0);
    /** Counting the key lookups a replayed search's extensions weigh. */
    private static final MySqlCoefficients LOOKED_UP = new MySqlCoefficients(0, 0, 0, 0, 0, 0, 0, 1);

    /**
     * One statement measured: what the model counts for it, and what the server spent.
     *
     * @param count partial orders or candidates counted from the join graph alone
     * @param priced extensions priced by the search replayed on the tables' statistics; 0 when not replayed
     * @param searchedTables tables of the replayed searches; 0 when not replayed
     * @param pricedExact false when the replay stopped at its budget
     * @param keyLookups key lookups the priced extensions weighed; 0 when not replayed
     * @param tableSquares the square of each search's tables, summed
     * @param classCubes the searches' equality class cubes
     */
    public record Observation(OptimizerCase statement, double count, double tokens, double tables,
                              double linkedPairs, double seconds, OptionalLong bytes, double priced,
                              double searchedTables, boolean pricedExact, double keyLookups, double tableSquares,
                              double classCubes) {

        /** Whether the search was replayed on statistics. */
        public boolean replayed() {
            return searchedTables > 0;
        }
    }

    private final CompileEstimator counting = estimator(COUNTING);
    private final CompileEstimator pricing = estimator(PRICED);
    private final CompileEstimator searching = estimator(SEARCHED);
    private final CompileEstimator lookingUp = estimator(LOOKED_UP);

    private static CompileEstimator estimator(MySqlCoefficients coefficients) {
        return new CompileEstimator(new MySqlDialect(coefficients, OptimizerSettings.MARIADB_DEFAULTS));
    }

    /** What the model counts for {@code statement} from its SQL alone, with what was measured of it. */
    public Observation observe(OptimizerCase statement, OptimizerProbe.Measured measured) {
        return observe(statement, measured, Catalog.NONE);
    }

    /** What the model counts for {@code statement} knowing {@code catalog}'s statistics, with what was measured. */
    public Observation observe(OptimizerCase statement, OptimizerProbe.Measured measured, Catalog catalog) {
        CompileEstimate estimate = counting.estimate(statement.sql(), statement.settings());
        MemoryTerms t = estimate.terms();
        double tokens = t.tokens() + 2 * (t.listElements() + t.valueRows() + t.valueCells());
        CompileEstimate priced = pricing.estimate(statement.sql(), statement.settings(), PreparedStatementTexts.NONE,
                catalog);
        double searched = searching.estimate(statement.sql(), statement.settings(), PreparedStatementTexts.NONE,
                catalog).searchSeconds();
        double lookups = lookingUp.estimate(statement.sql(), statement.settings(), PreparedStatementTexts.NONE,
                catalog).searchSeconds();
        return new Observation(statement, estimate.searchSeconds(), tokens, t.relations(), t.extraJoinClauses(),
                measured.seconds(), measured.bytes(), priced.searchSeconds(), searched, !priced.capped(), lookups,
                t.relationSquares(), t.equalityClassCubes());
    }

    /** The coefficients {@code observations} call for, from {@code start}. */
    public static MySqlCoefficients fit(List<Observation> observations, MySqlCoefficients start) {
        double[] memory = memory(observations, start);
        double perPlan = timePerCount(observations, false, start.secondsPerPlan());
        double perCandidate = timePerCount(observations, true, start.secondsPerPrunedCandidate());
        double[] replayed = replayedTime(observations, start);
        return new MySqlCoefficients(memory[0], memory[1], memory[2], perPlan, perCandidate, replayed[0], replayed[1],
                replayed[2], memory[3], memory[4]);
    }

    /** Time per priced extension, per searched table and per key lookup, over the replayed searches that finished. */
    private static double[] replayedTime(List<Observation> observations, MySqlCoefficients start) {
        List<double[]> rows = new ArrayList<>();
        List<Double> measured = new ArrayList<>();
        for (Observation o : observations) {
            if (o.replayed() && o.pricedExact()) {
                double weight = 1 / Math.max(o.seconds(), TIME_FLOOR_SECONDS);
                rows.add(new double[] {o.priced() * weight, o.searchedTables() * weight, o.keyLookups() * weight});
                measured.add(o.seconds() * weight);
            }
        }
        if (rows.size() < 3) {
            return new double[] {start.secondsPerPricedExtension(), start.secondsPerSearchedTable(),
                    start.secondsPerKeyLookup()};
        }
        return NonNegativeLeastSquares.solve(rows.toArray(double[][]::new),
                measured.stream().mapToDouble(Double::doubleValue).toArray());
    }

    private static double[] memory(List<Observation> observations, MySqlCoefficients start) {
        List<double[]> rows = new ArrayList<>();
        List<Double> measured = new ArrayList<>();
        for (Observation o : observations) {
            if (o.bytes().isPresent() && o.tokens() + o.tables() > 0) { // a bypassed statement has no terms
                double weight = 1 / Math.max(o.bytes().getAsLong(), MEMORY_FLOOR_BYTES);
                rows.add(new double[] {o.tokens() * weight, o.tables() * weight, o.linkedPairs() * weight,
                    o.tableSquares() * weight, o.classCubes() * weight});
                measured.add(o.bytes().getAsLong() * weight);
            }
        }
        if (rows.size() < 5) {
            return new double[] {start.bytesPerToken(), start.bytesPerTable(), start.bytesPerLinkedPair(),
                start.bytesPerTableSquared(), start.bytesPerEqualityClassCube()};
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

    /** The model's time for {@code o} under {@code c}: replayed on statistics where it was, else from the graph. */
    public static double seconds(Observation o, MySqlCoefficients c) {
        if (o.replayed()) {
            return o.priced() * c.secondsPerPricedExtension() + o.keyLookups() * c.secondsPerKeyLookup()
                    + o.searchedTables() * c.secondsPerSearchedTable();
        }
        return graphSeconds(o, c);
    }

    /** The model's time for {@code o} under {@code c} from the join graph alone, as without statistics. */
    public static double graphSeconds(Observation o, MySqlCoefficients c) {
        return o.count() * (o.statement().settings().pruneLevel() > 0 ? c.secondsPerPrunedCandidate()
                : c.secondsPerPlan());
    }

    /** The model's memory for {@code o} under {@code c}. */
    public static double bytes(Observation o, MySqlCoefficients c) {
        return o.tokens() * c.bytesPerToken() + o.tables() * c.bytesPerTable() + o.linkedPairs() * c.bytesPerLinkedPair()
                + o.tableSquares() * c.bytesPerTableSquared() + o.classCubes() * c.bytesPerEqualityClassCube();
    }
}

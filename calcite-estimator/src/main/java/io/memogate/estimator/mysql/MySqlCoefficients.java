package io.memogate.estimator.mysql;

import io.memogate.estimator.planner.MemoryTerms;
import io.memogate.estimator.planner.TermCoefficients;
import java.util.List;

/**
 * What MySQL's and MariaDB's optimizer spends, in memory per unit of the {@link MemoryTerms} and in time per
 * partial join order. Its memory grows with the statement, not with the join orders it tries: the parse
 * tree and item lists per token, the tables' {@code JOIN_TAB}s and statistics per table and per square of the
 * tables, the key lookups ({@code KEYUSE}) per linked pair of tables, and per cube of a multiple equality's
 * size. The memory terms were fitted by calibrate's corpus on MariaDB 10.11.19 (the session's
 * {@code MAX_MEMORY_USED} over a fresh connection's after EXPLAIN of IN lists of 5,000 to 30,000 values, stars,
 * chains and cliques of 4 to 12 tables, cliques of 16 to 32 and chains of 24 to 48; bench/log/mysql-optimizer.md):
 * the linked pairs' share went to the cubes, and every statement above 100 kB is within 2x.
 *
 * @param bytesPerToken memory per token of the statement (an IN list value is two: about 290 bytes)
 * @param bytesPerTable memory per table of a join search
 * @param bytesPerLinkedPair memory per pair of tables a join condition links
 * @param secondsPerPlan time per partial order of a search without pruning, counted from the join graph alone
 *     (no statistics of its tables: fitted on cliques)
 * @param secondsPerPrunedCandidate time per table evaluated at a level of a pruned search, likewise
 * @param secondsPerPricedExtension time per extension of a partial plan priced, counted by replaying the search
 *     on the tables' statistics ({@link CostBoundSearch})
 * @param secondsPerSearchedTable time per table of such a search spent whatever its order count (reading its
 *     keys and statistics, setting up its access paths)
 * @param secondsPerKeyLookup time per key lookup an extension weighs besides the table scan: an index of the
 *     table that the partial plan's tables reach ({@code best_access_path} prices each). Measured on MariaDB
 *     10.11, a clique's extension cost 2.1-3.2 times as much over tables indexed on the join column as over
 *     the same tables without the index (bench/log/mysql-optimizer.md)
 * @param bytesPerTableSquared memory per square of a join search's tables ({@link MemoryTerms#relationSquares()})
 * @param bytesPerEqualityClassCube memory per unit of {@link MemoryTerms#equalityClassCubes()}: about 100 bytes, so
 *     that 24 tables joined on one column take 1.4 MB for it
 */
public record MySqlCoefficients(double bytesPerToken, double bytesPerTable, double bytesPerLinkedPair,
                                double secondsPerPlan, double secondsPerPrunedCandidate,
                                double secondsPerPricedExtension, double secondsPerSearchedTable,
                                double secondsPerKeyLookup, double bytesPerTableSquared,
                                double bytesPerEqualityClassCube)
        implements TermCoefficients {

    public static final MySqlCoefficients DEFAULTS = new MySqlCoefficients(140, 800, 0, 0.2e-6, 20e-6,
            0.08e-6, 36e-6, 0.11e-6, 580, 100);

    public MySqlCoefficients {
        if (bytesPerToken < 0 || bytesPerTable < 0 || bytesPerLinkedPair < 0 || secondsPerPlan < 0
                || secondsPerPrunedCandidate < 0 || secondsPerPricedExtension < 0 || secondsPerSearchedTable < 0
                || secondsPerKeyLookup < 0 || bytesPerTableSquared < 0 || bytesPerEqualityClassCube < 0) {
            throw new IllegalArgumentException("MySQL coefficients must be >= 0");
        }
    }

    /**
     * Coefficients fitted before the memory of a search's squares and equality classes was modelled: those cost
     * nothing, as they did then.
     */
    public MySqlCoefficients(double bytesPerToken, double bytesPerTable, double bytesPerLinkedPair,
                             double secondsPerPlan, double secondsPerPrunedCandidate,
                             double secondsPerPricedExtension, double secondsPerSearchedTable,
                             double secondsPerKeyLookup) {
        this(bytesPerToken, bytesPerTable, bytesPerLinkedPair, secondsPerPlan, secondsPerPrunedCandidate,
                secondsPerPricedExtension, secondsPerSearchedTable, secondsPerKeyLookup, 0, 0);
    }

    /** The graph-only coefficients with the statistics' time terms at their defaults. */
    public MySqlCoefficients(double bytesPerToken, double bytesPerTable, double bytesPerLinkedPair,
                             double secondsPerPlan, double secondsPerPrunedCandidate) {
        this(bytesPerToken, bytesPerTable, bytesPerLinkedPair, secondsPerPlan, secondsPerPrunedCandidate,
                DEFAULTS.secondsPerPricedExtension, DEFAULTS.secondsPerSearchedTable, DEFAULTS.secondsPerKeyLookup,
                DEFAULTS.bytesPerTableSquared, DEFAULTS.bytesPerEqualityClassCube);
    }

    /**
     * In the order of {@link MemoryTerms#NAMES}: tokens, relations, and the linked pairs a greedy search
     * reports as its {@code extraJoinClauses}; the terms of PostgreSQL's searches cost nothing here. The tokens
     * of constant lists are counted apart, by element and by VALUES row and cell: each is a value and its comma
     * (or a row's parentheses), two tokens at this dialect's price.
     */
    @Override
    public double[] toArray() {
        double[] weights = new double[MemoryTerms.NAMES.size()];
        weights[MemoryTerms.NAMES.indexOf("relations")] = bytesPerTable;
        weights[MemoryTerms.NAMES.indexOf("extraJoinClauses")] = bytesPerLinkedPair;
        weights[MemoryTerms.NAMES.indexOf("tokens")] = bytesPerToken;
        weights[MemoryTerms.NAMES.indexOf("relationSquares")] = bytesPerTableSquared;
        weights[MemoryTerms.NAMES.indexOf("equalityClassCubes")] = bytesPerEqualityClassCube;
        for (String listTerm : List.of("listElements", "valueRows", "valueCells")) {
            weights[MemoryTerms.NAMES.indexOf(listTerm)] = 2 * bytesPerToken;
        }
        return weights;
    }
}

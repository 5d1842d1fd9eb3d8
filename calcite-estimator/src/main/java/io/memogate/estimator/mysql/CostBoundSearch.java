package io.memogate.estimator.mysql;

import java.util.stream.IntStream;

/**
 * MariaDB's greedy join search replayed on the tables' statistics ({@code greedy_search} and
 * {@code best_extension_by_limited_search}, sql/sql_select.cc, as 10.11 runs them): what it costs is the count
 * of extensions it prices ({@code best_access_path} calls), which this counts by searching the same way.
 *
 * <p>At each partial plan the search prices every table not yet joined (the cheapest key lookup the plan's
 * tables allow, or a scan), sorts them by the rows they add, fewest first, and extends the plan by each in turn,
 * depth first, {@code depth} tables deep. The plan's cost is its tables' access costs plus a fifth of the rows
 * of each prefix ({@code TIME_FOR_COMPARE}); an extension that costs as much as the best plan found so far is
 * not followed (the cost bound, at every prune level). When the cheapest extension is a whole unique key
 * ({@code eq_ref}) and following it found a better plan, the others are not tried
 * ({@code pruned_by_hanging_leaf}). With prune level 1 or 2 an extension is followed only when it adds fewer
 * rows or costs less than the level's best so far, which is taken only from tables no later table could give a
 * better key lookup ({@code pruned_by_heuristic}). A search shorter than the tables left fixes
 * the first table of the best plan and searches again from there.
 *
 * <p>Which tables the statistics make cheap decides how much the bound cuts: a star whose cheapest dimension
 * joins the fact table's most selective key is searched in a millisecond, the same star without it for
 * minutes. The counts follow the statistics as read, not the server's exact costs, so near such a tipping point
 * they can be far off. Not thread-safe: one per search.
 */
final class CostBoundSearch {

    /** The join buffer MariaDB fills before it scans a table again ({@code join_buffer_size}'s default). */
    private static final double JOIN_BUFFER_BYTES = 262_144;
    /** Bytes a joined row takes in the join buffer, per table of the prefix: a rough size of the keys. */
    private static final double BUFFERED_BYTES_PER_TABLE = 16;
    /** MariaDB's TIME_FOR_COMPARE: rows compared per unit of cost. */
    private static final double ROWS_PER_COST = 5;

    /**
     * What a search counts.
     *
     * @param evaluations extensions priced; when the budget stopped the replay, the count extrapolated from the
     *     share of the step's search tree it had covered, every subtree taken as large as those before it
     * @param exact false when the budget stopped the replay
     */
    record Count(double evaluations, boolean exact) {
    }

    private final PricedTables tables;
    private final int pruneLevel;
    private final long budget;
    /** The tables in the order the search starts from: fewest rows first, as MariaDB sorts them. */
    private final int[] baseOrder;
    private long evaluations;
    // Per depth of the recursion, the candidates of the plan being extended and what pricing them gave: kept
    // between calls, so that a replay of millions of extensions allocates nothing.
    private final int[][] candidatesAt;
    private final double[][] addedRowsAt;
    private final double[][] accessCostAt;
    private final boolean[][] eqRefAt;
    private double bestCost;
    /** How often a plan better than the best so far was found: tells which first table the best plan has. */
    private long improvements;
    private int bestFirst;
    private double bestFirstRows;
    private double bestFirstCost;
    /** The share of the current step's search tree covered when the budget ran out; -1 before. */
    private double progress = -1;

    CostBoundSearch(PricedTables tables, int pruneLevel, long budget) {
        this.tables = tables;
        this.pruneLevel = pruneLevel;
        this.budget = budget;
        this.baseOrder = IntStream.range(0, tables.size).boxed()
                .sorted((a, b) -> Double.compare(tables.rows[a], tables.rows[b]))
                .mapToInt(Integer::intValue).toArray();
        int n = tables.size;
        this.candidatesAt = new int[n + 1][n];
        this.addedRowsAt = new double[n + 1][n];
        this.accessCostAt = new double[n + 1][n];
        this.eqRefAt = new boolean[n + 1][n];
    }

    /** The extensions priced joining every table, {@code depth} deep at each step. */
    Count count(int depth) {
        int n = tables.size;
        long joined = 0;
        double rows = 1;
        double cost = 0;
        long stepStart = 0;
        for (int left = n; left > 0 && evaluations < budget; left--) {
            bestCost = Double.MAX_VALUE;
            bestFirst = -1;
            stepStart = evaluations;
            int levels = Math.min(depth, left);
            extend(joined, rows, cost, levels, true, 0, 1);
            if (levels >= left || bestFirst < 0) {
                break;
            }
            joined |= 1L << bestFirst;
            rows = bestFirstRows;
            cost = bestFirstCost;
        }
        if (evaluations < budget) {
            return new Count(evaluations, true);
        }
        // Extrapolated over the step the budget stopped; the steps after it are not counted.
        return new Count(stepStart + (budget - stepStart) / Math.max(progress, 1e-12), false);
    }

    /**
     * Extends the partial plan {@code prefix}; {@code done} is the share of the step's search tree covered before
     * it, {@code share} its own subtree's share, for the extrapolation when the budget runs out.
     */
    private void extend(long prefix, double rows, double cost, int levels, boolean first, double done, double share) {
        int depth = Long.bitCount(prefix);
        int[] candidates = candidatesAt[depth];
        double[] addedRows = addedRowsAt[depth];
        double[] accessCost = accessCostAt[depth];
        boolean[] eqRef = eqRefAt[depth];
        double scanRefills = 1 + Math.floor(rows * BUFFERED_BYTES_PER_TABLE * Math.max(1, depth) / JOIN_BUFFER_BYTES);
        int count = 0;
        for (int t : baseOrder) {
            if ((prefix & (1L << t)) != 0) {
                continue;
            }
            evaluations++;
            // Access paths compete on their cost plus that of comparing the rows they return; the plan's cost
            // then adds the access cost, and the comparisons once per row of the new prefix.
            double best = tables.pages[t] * scanRefills;
            double returned = tables.rows[t];
            double bestTotal = best + rows * returned / ROWS_PER_COST;
            boolean unique = false;
            for (PricedTables.Lookup lookup : tables.lookups[t]) {
                double lookupCost = rows * lookup.price();
                double total = lookupCost + rows * lookup.rows() / ROWS_PER_COST;
                if (total < bestTotal && lookup.usableAfter(prefix)) {
                    best = lookupCost;
                    bestTotal = total;
                    returned = lookup.rows();
                    unique = lookup.eqRef();
                }
            }
            // Insertion into the candidates sorted by the rows each adds, fewest first, ties in base order
            int at = count++;
            while (at > 0 && addedRows[at - 1] > returned) {
                candidates[at] = candidates[at - 1];
                addedRows[at] = addedRows[at - 1];
                accessCost[at] = accessCost[at - 1];
                eqRef[at] = eqRef[at - 1];
                at--;
            }
            candidates[at] = t;
            addedRows[at] = returned;
            accessCost[at] = best;
            eqRef[at] = unique;
        }
        if (evaluations >= budget) {
            if (progress < 0) {
                progress = done;
            }
            return;
        }
        boolean onlyFirst = eqRef[0];
        double bestRows = Double.MAX_VALUE;
        double bestHereCost = Double.MAX_VALUE;
        long remaining = ~prefix & (tables.size == Long.SIZE ? -1L : (1L << tables.size) - 1);
        for (int i = 0; i < count && evaluations < budget; i++) {
            int t = candidates[i];
            double nextRows = rows * addedRows[i];
            double nextCost = cost + accessCost[i] + nextRows / ROWS_PER_COST;
            if (nextCost >= bestCost) {
                continue;
            }
            if (pruneLevel > 0) {
                if (bestRows > nextRows || bestHereCost > nextCost) {
                    // Kept as the level's best only if no table left could give it a better key lookup
                    if (bestRows >= nextRows && bestHereCost >= nextCost
                            && !(addedRows[i] >= 2 && keyedLater(t, prefix, remaining & ~(1L << t)))) {
                        bestRows = nextRows;
                        bestHereCost = nextCost;
                    }
                } else {
                    continue;
                }
            }
            long before = improvements;
            if (levels > 1 && count > 1) {
                extend(prefix | (1L << t), nextRows, nextCost, levels - 1, false, done + share * i / count,
                        share / count);
            } else if (nextCost < bestCost) {
                bestCost = nextCost;
                improvements++;
            }
            if (first && improvements != before) { // the best plan now starts with t
                bestFirst = t;
                bestFirstRows = nextRows;
                bestFirstCost = nextCost;
            }
            if (onlyFirst && improvements != before) {
                break;
            }
            if (evaluations >= budget && progress < 0) {
                progress = done + share * (i + 1) / count;
            }
        }
    }

    /**
     * Whether a key lookup of {@code t} that {@code prefix} cannot bind yet could be bound once one of
     * {@code others} is joined: a table the prune heuristic does not take as its level's best, as a later order
     * might reach it by a better key ({@code key_dependent}).
     */
    private boolean keyedLater(int t, long prefix, long others) {
        for (PricedTables.Lookup lookup : tables.lookups[t]) {
            if (!lookup.usableAfter(prefix) && lookup.usableAfter(prefix | others)) {
                return true;
            }
        }
        return false;
    }
}

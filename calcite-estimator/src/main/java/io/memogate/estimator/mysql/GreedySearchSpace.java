package io.memogate.estimator.mysql;

import io.memogate.estimator.graph.JoinGraph;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * How many partial join orders MySQL's greedy search evaluates ({@code greedy_search} and
 * {@code best_extension_by_limited_search}, sql/sql_select.cc). Each step searches orders of the tables not yet
 * fixed, {@code depth} deep, then fixes the first table of the best; the steps go on until the tables left fit
 * within the depth, and that last search completes the plan.
 *
 * <ul>
 * <li>Without pruning (optimizer_prune_level 0) a step extends a partial order by every table joined to it
 *     (by a cross join only when none is): a Cartesian extension costs more than the best plan already found,
 *     and the cost bound cuts it. The count of such orders is {@code sum P(r, k)} for a clique and grows as
 *     fast for any graph with many orders of joined tables. Steps over at most 18 tables are counted exactly
 *     over the subsets of those tables; larger ones by a depth-first walk, up to a budget, past which the result
 *     says "at least".</li>
 * <li>With pruning (levels 1 and 2) a step keeps about one extension per level, having evaluated every table
 *     left there: {@code sum over levels of the tables left}.</li>
 * </ul>
 * Measured against MariaDB 10.11 (bench/RESULTS.md): a clique's count times 0.2 microseconds is its search
 * time at depths 3 to 62; stars and chains of tables reached by their primary key take far less, the cost bound
 * cutting more than joins, so the count is an upper bound for them. Immutable and thread-safe.
 */
final class GreedySearchSpace {

    /** Partial orders counted at most per statement: the count stops there, its time already long. */
    static final long DEFAULT_BUDGET = 2_000_000;

    /** A count: partial orders evaluated, and whether the count finished within the budget. */
    record Count(double plans, boolean exact) {
    }

    private final long budget;

    GreedySearchSpace(long budget) {
        this.budget = budget;
    }

    /** The orders evaluated to join {@code graph}'s tables searching {@code depth} deep without pruning. */
    Count unpruned(JoinGraph graph, int depth) {
        int n = graph.size();
        if (n < 2) {
            return new Count(n, true);
        }
        if (!graph.fitsMask()) {
            return new Count(budget, false);
        }
        long[] neighbours = new long[n];
        for (int v = 0; v < n; v++) {
            neighbours[v] = graph.neighbourMask(v);
        }
        long all = n == 64 ? -1L : (1L << n) - 1;
        int[] fixOrder = fixingOrder(graph, neighbours);
        Walk walk = new Walk(neighbours, budget);
        double counted = 0;
        long fixed = 0;
        for (int step = 0; walk.remaining > 0; step++) {
            int left = n - step;
            int levels = Math.min(depth, left);
            if (left <= MAX_SUBSET_TABLES) {
                counted += bySubsets(neighbours, fixed, all & ~fixed, levels);
            } else {
                walk.search(fixed, all & ~fixed, levels);
            }
            if (depth >= left) {
                break;
            }
            fixed |= 1L << fixOrder[step];
        }
        return walk.remaining > 0 ? new Count(counted + walk.counted, true) : new Count(counted + budget, false);
    }

    /** Tables left up to which a step is counted exactly over the subsets of them (2^18 entries). */
    static final int MAX_SUBSET_TABLES = 18;

    /**
     * The orders of up to {@code levels} tables of {@code left} extending {@code fixed}, counted exactly: the
     * orders that build a set of tables, summed over the sets, each set's count from those one table smaller.
     */
    private static double bySubsets(long[] neighbours, long fixed, long left, int levels) {
        int r = Long.bitCount(left);
        int[] vertex = new int[r];
        long rest = left;
        for (int k = 0; k < r; k++) {
            vertex[k] = Long.numberOfTrailingZeros(rest);
            rest &= rest - 1;
        }
        long fixedNeighbours = 0;
        for (long f = fixed; f != 0; f &= f - 1) {
            fixedNeighbours |= neighbours[Long.numberOfTrailingZeros(f)];
        }
        int size = 1 << r;
        double[] orders = new double[size];
        long[] reach = new long[size]; // neighbours of the set's tables, as a mask of the whole graph
        orders[0] = 1;
        reach[0] = fixedNeighbours;
        double total = 0;
        for (int set = 0; set < size; set++) {
            if (set > 0) {
                int low = Integer.numberOfTrailingZeros(set);
                reach[set] = reach[set & (set - 1)] | neighbours[vertex[low]];
            }
            double here = orders[set];
            if (here == 0 || Integer.bitCount(set) >= levels) {
                continue;
            }
            int joined = 0;
            boolean anything = fixed != 0 || set != 0;
            for (int k = 0; k < r; k++) {
                if ((set & (1 << k)) == 0 && (!anything || (reach[set] & (1L << vertex[k])) != 0)) {
                    joined |= 1 << k;
                }
            }
            int candidates = joined != 0 ? joined : (size - 1) & ~set; // a cross join only where nothing is joined
            for (int c = candidates; c != 0; c &= c - 1) {
                orders[set | (c & -c)] += here;
                total += here;
            }
        }
        return total;
    }

    /** The candidates evaluated with pruning on: every table left, at each level of each step. */
    static double pruned(int tables, int depth) {
        double candidates = 0;
        for (int left = tables; left > 0; left--) {
            int levels = Math.min(depth, left);
            for (int level = 0; level < levels; level++) {
                candidates += left - level;
            }
            if (depth >= left) {
                break;
            }
        }
        return candidates;
    }

    /**
     * The order in which the steps fix tables: breadth first from the best-joined table, so that each fixed
     * prefix is joined, as the best orders the search fixes are.
     */
    private static int[] fixingOrder(JoinGraph graph, long[] neighbours) {
        int n = graph.size();
        int start = 0;
        for (int v = 1; v < n; v++) {
            if (Long.bitCount(neighbours[v]) > Long.bitCount(neighbours[start])) {
                start = v;
            }
        }
        int[] order = new int[n];
        boolean[] seen = new boolean[n];
        int filled = 0;
        for (int root = start; filled < n; root = (root + 1) % n) {
            if (seen[root]) {
                continue;
            }
            Deque<Integer> queue = new ArrayDeque<>();
            queue.add(root);
            seen[root] = true;
            while (!queue.isEmpty()) {
                int v = queue.removeFirst();
                order[filled++] = v;
                for (int w = 0; w < n; w++) {
                    if (!seen[w] && (neighbours[v] & (1L << w)) != 0) {
                        seen[w] = true;
                        queue.add(w);
                    }
                }
            }
        }
        return order;
    }

    /** The depth-first walk of partial orders, counting each, until the budget runs out. */
    private static final class Walk {
        private final long[] neighbours;
        long remaining;
        long counted;

        Walk(long[] neighbours, long budget) {
            this.neighbours = neighbours;
            this.remaining = budget;
        }

        /** Counts the orders of up to {@code levels} tables of {@code left} that extend {@code prefix}. */
        void search(long prefix, long left, int levels) {
            if (levels == 0 || remaining <= 0) {
                return;
            }
            long joined = 0;
            if (prefix != 0) {
                for (long p = prefix; p != 0; p &= p - 1) {
                    joined |= neighbours[Long.numberOfTrailingZeros(p)];
                }
                joined &= left;
            }
            long candidates = joined != 0 ? joined : left; // a cross join only where nothing is joined
            for (long c = candidates; c != 0 && remaining > 0; c &= c - 1) {
                long table = c & -c;
                counted++;
                remaining--;
                search(prefix | table, left & ~table, levels - 1);
            }
        }
    }
}

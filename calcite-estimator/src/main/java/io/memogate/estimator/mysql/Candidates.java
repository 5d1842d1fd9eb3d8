package io.memogate.estimator.mysql;

/**
 * The tables a partial plan of MariaDB's join search can be extended by, each priced as {@code best_access_path}
 * prices it: a scan, refilled once per join buffer of the plan's rows, or the cheapest key lookup the plan's
 * tables bind; kept sorted by the rows each adds, fewest first, the order the search follows them in. One per
 * depth of {@link CostBoundSearch}'s recursion, refilled at each partial plan.
 */
final class Candidates {

    /** MariaDB's TIME_FOR_COMPARE: rows compared per unit of cost. */
    static final double ROWS_PER_COST = 5;
    /** The join buffer MariaDB fills before it scans a table again ({@code join_buffer_size}'s default). */
    private static final double JOIN_BUFFER_BYTES = 262_144;
    /** Bytes a joined row takes in the join buffer, per table of the prefix: a rough size of the keys. */
    private static final double BUFFERED_BYTES_PER_TABLE = 16;

    /** The candidate tables, fewest added rows first. */
    final int[] tables;
    /** The rows each adds per row of the plan. */
    final double[] addedRows;
    /** What reaching it costs: the cheapest access path's price. */
    final double[] accessCost;
    /** Whether that path is a whole unique key ({@code eq_ref}). */
    final boolean[] eqRef;
    /** The key lookups the partial plan could use to reach it. */
    final int[] lookups;

    /**
     * Whether candidate {@code i} adds at most one row to each of the plan's: a whole unique key, or a key with as
     * many distinct values as rows. Such a table whose own search ended at one too, down to the end of the plan,
     * ends the search of its node: MariaDB does not try the other tables there ({@code pruned_by_hanging_leaf}
     * in the optimizer trace, for ref access of one row as for {@code eq_ref}).
     */
    boolean hangingLeaf(int i) {
        return eqRef[i] || addedRows[i] <= 1;
    }

    Candidates(int tables) {
        this.tables = new int[tables];
        this.addedRows = new double[tables];
        this.accessCost = new double[tables];
        this.eqRef = new boolean[tables];
        this.lookups = new int[tables];
    }

    /**
     * Prices every table not in {@code prefix} as the next one, sorted by the rows each adds, fewest first, ties
     * in {@code baseOrder}; returns how many.
     */
    int price(PricedTables priced, int[] baseOrder, long prefix, double rows) {
        int depth = Long.bitCount(prefix);
        int[] candidates = this.tables;
        int[] usableLookups = this.lookups;
        double scanRefills = 1 + Math.floor(rows * BUFFERED_BYTES_PER_TABLE * Math.max(1, depth) / JOIN_BUFFER_BYTES);
        int count = 0;
        for (int t : baseOrder) {
            if ((prefix & (1L << t)) != 0) {
                continue;
            }
            // Access paths compete on their cost plus that of comparing the rows they return; the plan's cost
            // then adds the access cost, and the comparisons once per row of the new prefix.
            double best = priced.pages[t] * scanRefills;
            double returned = priced.rows[t];
            double bestTotal = best + rows * returned / ROWS_PER_COST;
            boolean unique = false;
            int usable = 0;
            for (PricedTables.Lookup lookup : priced.lookups[t]) {
                if (!lookup.usableAfter(prefix)) {
                    continue;
                }
                usable++;
                double lookupCost = rows * lookup.price();
                double total = lookupCost + rows * lookup.rows() / ROWS_PER_COST;
                if (total < bestTotal) {
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
                usableLookups[at] = usableLookups[at - 1];
                at--;
            }
            candidates[at] = t;
            addedRows[at] = returned;
            accessCost[at] = best;
            eqRef[at] = unique;
            usableLookups[at] = usable;
        }
        return count;
    }

    /**
     * In a chain of whole unique keys, the candidate MariaDB extends the plan by: the first table left, in base
     * order ({@code rank}), that a whole unique key reaches; -1 when none is, where every table is tried.
     */
    int chainLink(int count, int[] rank) {
        int link = -1;
        for (int i = 0; i < count; i++) {
            if (eqRef[i] && (link < 0 || rank[tables[i]] < rank[tables[link]])) {
                link = i;
            }
        }
        return link;
    }

    /** The key lookups the candidates priced weigh: every one outside a chain ({@code link} -1), else up to it. */
    int lookupsPriced(int count, int link, int[] rank) {
        int weighed = 0;
        for (int i = 0; i < count; i++) {
            if (priced(i, link, rank)) {
                weighed += lookups[i];
            }
        }
        return weighed;
    }

    /** The candidates priced: every one outside a chain, those before the link in base order and the link within. */
    int pricedUpTo(int count, int link, int[] rank) {
        int priced = 0;
        for (int i = 0; i < count; i++) {
            if (priced(i, link, rank)) {
                priced++;
            }
        }
        return priced;
    }

    private boolean priced(int i, int link, int[] rank) {
        return link < 0 || rank[tables[i]] <= rank[tables[link]];
    }
}

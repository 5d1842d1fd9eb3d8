package io.memogate.estimator.mysql;

import java.util.SplittableRandom;
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
 * not followed (the cost bound, at every prune level). A table that adds at most one row (a whole unique key,
 * or a key with as many distinct values as rows) whose own search ended at such a table too, down to a whole
 * plan, ends the search of its node: the other tables there are not tried ({@code pruned_by_hanging_leaf}; the
 * trace's counts for cliques of 18-20 tables searched 3-5 deep, which a cut on unique keys alone overcounted 5
 * to 9 times). With prune level 1 or 2 an extension is followed only when it adds fewer rows or costs less
 * than the level's best so far, which is taken only from tables no later table could give a better key lookup
 * ({@code pruned_by_heuristic}). With prune level 2, a plan extended by a whole unique key is
 * extended next by the first table left (in base order) that another whole unique key reaches, alone, and so on
 * down the chain, pricing only the tables up to it ({@code eq_ref_extension_by_limited_search}; the trace's
 * counts for stars of 6-14 tables). A search shorter than the tables left fixes the first table of the best
 * plan and searches again from there.
 *
 * <p>Which tables the statistics make cheap decides how much the bound cuts: a star whose cheapest dimension
 * joins the fact table's most selective key is searched in a millisecond, the same star without it for
 * minutes. The counts follow the statistics as read, not the server's exact costs, so near such a tipping point
 * they can be far off.
 *
 * <p>A search longer than the budget is replayed up to it; then the subtrees it has not entered (the candidates
 * after the one each level of the recursion is at, and the later steps' searches) share what is left of half the
 * budget more. A subtree whose share is large is replayed up to half of it and its own unentered subtrees
 * estimated the same way; a smaller one is searched for its first plans (those that leave the replay's first
 * path at one node at most), then sampled by a few random paths to its leaves (Knuth's estimate of a tree's
 * size, "Estimating the efficiency of backtrack programs", 1975). A subtree is estimated under the cost bound the
 * server's search would have there: the bound reached so far, lowered by the subtree's first plans, which the
 * server meets early; a random path alone rarely meets the plan that cuts most of a subtree (a chain's subtree
 * was counted 37 times too large without them), and taking each later subtree as large as the earlier ones
 * overshot 3 to 30 times. Where a path meets a table adding at most one row whose search did not end the node,
 * its siblings, when such tables too, are taken as large as it (each adds a row at most at one price), and a
 * whole plan as cheap as the bound counts as found: it is the plan that set the bound, which the replay reached
 * first. Not thread-safe: one per search.
 */
final class CostBoundSearch {

    private static final double ROWS_PER_COST = Candidates.ROWS_PER_COST;

    /**
     * What sampling the subtrees the replay did not reach may price, as a share of the replay's budget: the
     * estimator's work on a statement stays under {@code 1 + SAMPLED_SHARE} times the budget.
     */
    private static final double SAMPLED_SHARE = 0.5;
    /** Random paths followed per unexplored subtree, at most; fewer when the budget left cannot pay for them. */
    private static final int MAX_PROBES = 64;
    /** A subtree whose share of the work pays for this many random paths is partly replayed instead. */
    private static final int LOCAL_REPLAY_PROBES = 2 * MAX_PROBES;
    /** The work, in random paths, of the search for a sampled subtree's first plans. */
    private static final int FIRST_PLANS_PROBES = 8;

    /**
     * What a search counts.
     *
     * @param evaluations extensions priced; when the budget stopped the replay, those it priced plus an estimate
     *     of the subtrees it had not reached, each sampled by random paths under the cost bound found so far
     * @param exact false when the budget stopped the replay
     * @param keyLookups key lookups the priced extensions weighed: for each, the indexes of the table a prefix
     *     of whose columns the partial plan's tables reach; past the budget, the replayed part's share per
     *     extension carried over to the sampled ones
     */
    record Count(double evaluations, boolean exact, double keyLookups) {
    }

    private final PricedTables tables;
    private final int pruneLevel;
    private final long budget;
    /** The replay's budget and what sampling may add to it: the most extensions this search prices. */
    private final long cap;
    /** The tables in the order the search starts from: fewest rows first, as MariaDB sorts them. */
    private final int[] baseOrder;
    private long evaluations;
    /**
     * Per depth of the recursion, the candidates of the plan being extended: kept between calls, so that a replay
     * of millions of extensions allocates nothing.
     */
    private final Candidates[] at;
    /** Per depth, the candidates a probe may follow, and which of them the replay is at (for the probe count). */
    private final int[][] survivorsAt;
    private final int[] indexAt;
    /** Per depth, the prune level's best rows and cost among the candidates followed so far. */
    private final double[] levelRowsAt;
    private final double[] levelCostAt;
    private final int[] countAt;
    /**
     * Per depth, whether the plan there ends in a whole unique key found with prune level 2: MariaDB then extends
     * it by the next such table alone ({@code eq_ref_extension_by_limited_search}), not by every table left.
     */
    private final boolean[] chainedAt;
    /** Each table's place in {@link #baseOrder}, the order the chain's search meets the tables in. */
    private final int[] rank;
    private double bestCost;
    /** How often a plan better than the best so far was found: tells which first table the best plan has. */
    private long improvements;
    private int bestFirst;
    private double bestFirstRows;
    private double bestFirstCost;
    /** Past the replay's limit: subtrees not yet entered are estimated ({@link #estimateUnentered}). */
    private boolean sampling;
    /** Whether the search ran past the budget anywhere: its count is then partly estimated. */
    private boolean pastBudget;
    /** The extensions the replay prices before it estimates the rest: the budget, or a subtree's share of it. */
    private long replayLimit;
    /** The greedy search's steps not yet taken, this one's included: the later ones need a share of the work too. */
    private int stepsAhead = 1;
    private int probesPerSubtree;
    /** Extensions the sampled subtrees are estimated to price. */
    private double sampled;
    /** Extensions the probes priced (the estimator's own work, not counted as the server's). */
    private long probeWork;
    /** Key lookups weighed by the extensions the replay priced (sampled subtrees not included). */
    private long keyLookups;
    // Fixed, so that a statement's estimate is the same on every call
    private final SplittableRandom random = new SplittableRandom(0x5EED);
    private int stepDepth;
    /** Whether the last {@link #probe}'s node ended at a hanging leaf along its path. */
    private boolean probeEdge;

    CostBoundSearch(PricedTables tables, int pruneLevel, long budget) {
        this.tables = tables;
        this.pruneLevel = pruneLevel;
        this.budget = budget;
        this.cap = budget + (long) (budget * SAMPLED_SHARE);
        this.replayLimit = budget;
        this.baseOrder = IntStream.range(0, tables.size).boxed()
                .sorted((a, b) -> Double.compare(tables.rows[a], tables.rows[b]))
                .mapToInt(Integer::intValue).toArray();
        int n = tables.size;
        this.at = new Candidates[n + 1];
        for (int d = 0; d <= n; d++) {
            at[d] = new Candidates(n);
        }
        this.survivorsAt = new int[n + 1][n];
        this.indexAt = new int[n + 1];
        this.levelRowsAt = new double[n + 1];
        this.levelCostAt = new double[n + 1];
        this.countAt = new int[n + 1];
        this.chainedAt = new boolean[n + 1];
        this.rank = new int[n];
        for (int i = 0; i < n; i++) {
            rank[baseOrder[i]] = i;
        }
    }

    /** The extensions priced joining every table, {@code depth} deep at each step. */
    Count count(int depth) {
        int n = tables.size;
        long joined = 0;
        double rows = 1;
        double cost = 0;
        for (int left = n; left > 0; left--) {
            bestCost = Double.MAX_VALUE;
            bestFirst = -1;
            stepDepth = n - left;
            int levels = Math.min(depth, left);
            chainedAt[stepDepth] = false;
            stepsAhead = Math.max(1, left - levels + 1);
            extend(joined, rows, cost, levels, true);
            if (levels >= left || bestFirst < 0) {
                break;
            }
            joined |= 1L << bestFirst;
            rows = bestFirstRows;
            cost = bestFirstCost;
        }
        double lookupsPerExtension = evaluations == 0 ? 0 : (double) keyLookups / evaluations;
        return new Count(evaluations + sampled, !pastBudget, keyLookups + sampled * lookupsPerExtension);
    }

    /** Prices every table not in {@code prefix} as the next one, into {@code prefix}'s depth; returns how many. */
    private int price(long prefix, double rows) {
        return at[Long.bitCount(prefix)].price(tables, baseOrder, prefix, rows);
    }

    /**
     * Extends the partial plan {@code prefix} by every candidate the bound and the prune level let through;
     * returns whether the search of this node ended at a hanging leaf ({@link Candidates#hangingLeaf}).
     */
    private boolean extend(long prefix, double rows, double cost, int levels, boolean first) {
        int depth = Long.bitCount(prefix);
        int count = price(prefix, rows);
        int link = chainLink(depth, count);
        evaluations += link < 0 ? count : at[depth].pricedUpTo(count, link, rank);
        keyLookups += at[depth].lookupsPriced(count, link, rank);
        int[] candidates = at[depth].tables;
        double[] addedRows = at[depth].addedRows;
        double[] accessCost = at[depth].accessCost;
        countAt[depth] = link < 0 ? count : link + 1;
        levelRowsAt[depth] = Double.MAX_VALUE;
        levelCostAt[depth] = Double.MAX_VALUE;
        for (int i = Math.max(0, link); i < countAt[depth]; i++) {
            int t = candidates[i];
            double nextRows = rows * addedRows[i];
            double nextCost = cost + accessCost[i] + nextRows / ROWS_PER_COST;
            if (!followed(prefix, i, nextRows, nextCost)) {
                continue;
            }
            long before = improvements;
            boolean edge = false;
            if (levels > 1 && count > 1) {
                indexAt[depth] = i;
                chainedAt[depth + 1] = chains(depth, i);
                if (!sampling && evaluations >= replayLimit) {
                    sampling = true;
                    pastBudget = true;
                }
                edge = sampling ? estimateUnentered(prefix | (1L << t), nextRows, nextCost, levels - 1, depth)
                        : extend(prefix | (1L << t), nextRows, nextCost, levels - 1, false);
            } else if (nextCost < bestCost) {
                bestCost = nextCost;
                improvements++;
                edge = true;
            }
            if (first && improvements != before) { // the best plan now starts with t
                bestFirst = t;
                bestFirstRows = nextRows;
                bestFirstCost = nextCost;
            }
            if (edge && at[depth].hangingLeaf(i)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Counts a subtree the replay has not entered. The subtrees not yet entered (the candidates after the one each
     * level of the recursion is at, this one's included, and the greedy search's later steps) share the work
     * left. With a share large enough, the subtree is replayed up to half of it and its own unentered subtrees
     * estimated the same way, so that the plans it meets first lower the bound before its later parts are
     * estimated, as in the server's search (stars past the budget: 0.50-1.52 of the exact count sampled at
     * once, 1.00-1.26 so). With a smaller share, searched for its first plans ({@link #firstPlans}), then
     * sampled ({@link #sample}). Returns whether the subtree's search ended at a hanging leaf.
     */
    private boolean estimateUnentered(long prefix, double rows, double cost, int levels, int depth) {
        long subtrees = 1;
        for (int d = stepDepth; d <= depth; d++) {
            subtrees += countAt[d] - indexAt[d] - 1;
        }
        long share = Math.max(0, cap - evaluations - probeWork) / subtrees / stepsAhead;
        long perProbe = Math.max(1, (long) levels * (tables.size - depth));
        if (share >= LOCAL_REPLAY_PROBES * perProbe) {
            long limit = replayLimit;
            replayLimit = evaluations + share / 2;
            sampling = false;
            boolean edge = extend(prefix, rows, cost, levels, false);
            sampling = true;
            replayLimit = limit;
            return edge;
        }
        probesPerSubtree = (int) Math.max(1, Math.min(MAX_PROBES, share / perProbe));
        boolean edge = firstPlans(prefix, rows, cost, levels);
        sampled += sample(prefix, rows, cost, levels);
        return edge;
    }

    /** The extensions the subtree of {@code prefix} prices: the mean of random paths followed to its leaves. */
    private double sample(long prefix, double rows, double cost, int levels) {
        double sum = 0;
        int probes = 0;
        for (int p = 0; p < probesPerSubtree && (p == 0 || probeWork + evaluations < cap); p++) {
            sum += probe(prefix, rows, cost, levels);
            probes++;
        }
        return sum / probes;
    }

    /**
     * One random path down the subtree of {@code prefix} (Knuth's estimate of a tree's size): the candidates
     * priced at each node, times the candidates that survive the bound and prune level at every node above.
     * Plans found on the way lower the bound, as they would in the replay.
     */
    private double probe(long prefix, double rows, double cost, int levels) {
        int depth = Long.bitCount(prefix);
        int count = price(prefix, rows);
        probeWork += count;
        int link = chainLink(depth, count);
        double priced = link < 0 ? count : at[depth].pricedUpTo(count, link, rank);
        double[] addedRows = at[depth].addedRows;
        double[] accessCost = at[depth].accessCost;
        int[] survivors = survivorsAt[depth];
        boolean leaves = levels <= 1 || count <= 1;
        levelRowsAt[depth] = Double.MAX_VALUE;
        levelCostAt[depth] = Double.MAX_VALUE;
        int surviving = 0;
        probeEdge = false;
        for (int i = Math.max(0, link); i < (link < 0 ? count : link + 1); i++) {
            double nextCost = cost + accessCost[i] + rows * addedRows[i] / ROWS_PER_COST;
            // A whole plan as cheap as the bound is the plan that set it, which the replay reached first there
            boolean tie = leaves && nextCost == bestCost;
            if (!tie && !followed(prefix, i, rows * addedRows[i], nextCost)) {
                continue;
            }
            if (leaves) {
                bestCost = nextCost;
                improvements++;
                probeEdge |= at[depth].hangingLeaf(i);
            } else {
                survivors[surviving++] = i;
            }
        }
        if (surviving == 0) {
            return priced;
        }
        // A hanging leaf first: the others are tried only when its search did not end at one. Each such node
        // follows two paths; past twice the cap a path takes one at random, so that the work stays bounded.
        if (at[depth].hangingLeaf(0) && survivors[0] == 0 && probeWork + evaluations < 2 * cap) {
            double firstSize = follow(prefix, rows, cost, levels, 0);
            if (probeEdge || surviving == 1) {
                return priced + firstSize;
            }
            // Others that add at most a row each too, at one price: their subtrees are as large as the first's.
            // Others are sampled by a path of their own.
            if (allHangingLeaves(depth, survivors, surviving)) {
                return priced + surviving * firstSize;
            }
            int other = survivors[1 + random.nextInt(surviving - 1)];
            double otherSize = follow(prefix, rows, cost, levels, other);
            probeEdge = false;
            return priced + firstSize + (surviving - 1) * otherSize;
        }
        double size = follow(prefix, rows, cost, levels, survivors[random.nextInt(surviving)]);
        probeEdge = false;
        return priced + surviving * size;
    }

    private boolean allHangingLeaves(int depth, int[] survivors, int surviving) {
        for (int s = 0; s < surviving; s++) {
            if (!at[depth].hangingLeaf(survivors[s])) {
                return false;
            }
        }
        return true;
    }

    /**
     * Follows the plans that leave the replay's first path through the subtree of {@code prefix} (fewest rows
     * first at every node) at one node at most, deepest first as the replay meets them (limited discrepancy
     * search), for as long as {@link #FIRST_PLANS_PROBES} random paths would take, or the subtree's own paths when
     * fewer: the plans the server meets early there and the bound they set, which the random paths then meet. Its
     * work is the estimator's, not counted as the server's.
     */
    private boolean firstPlans(long prefix, double rows, double cost, int levels) {
        long paths = Math.min(FIRST_PLANS_PROBES, probesPerSubtree);
        long limit = probeWork + paths * levels * (tables.size - Long.bitCount(prefix));
        return nearFirstPath(prefix, rows, cost, levels, 1, limit);
    }

    /**
     * The plans of {@code prefix}'s subtree that leave the first path at {@code discrepancies} nodes at most;
     * returns whether the search ended at a hanging leaf.
     */
    private boolean nearFirstPath(long prefix, double rows, double cost, int levels, int discrepancies,
                                  long workLimit) {
        int depth = Long.bitCount(prefix);
        int count = price(prefix, rows);
        probeWork += count;
        int link = chainLink(depth, count);
        levelRowsAt[depth] = Double.MAX_VALUE;
        levelCostAt[depth] = Double.MAX_VALUE;
        boolean firstTaken = false;
        for (int i = Math.max(0, link); i < (link < 0 ? count : link + 1) && probeWork < workLimit; i++) {
            double nextRows = rows * at[depth].addedRows[i];
            double nextCost = cost + at[depth].accessCost[i] + nextRows / ROWS_PER_COST;
            if (!followed(prefix, i, nextRows, nextCost)) {
                continue;
            }
            boolean edge = true;
            if (levels > 1 && count > 1) {
                if (firstTaken && discrepancies == 0) {
                    return false;
                }
                chainedAt[depth + 1] = chains(depth, i);
                edge = nearFirstPath(prefix | (1L << at[depth].tables[i]), nextRows, nextCost, levels - 1,
                        firstTaken ? discrepancies - 1 : discrepancies, workLimit);
                firstTaken = true;
            } else {
                bestCost = nextCost;
                improvements++;
            }
            if (edge && at[depth].hangingLeaf(i)) {
                return true;
            }
        }
        return false;
    }

    private double follow(long prefix, double rows, double cost, int levels, int i) {
        int depth = Long.bitCount(prefix);
        double nextRows = rows * at[depth].addedRows[i];
        double nextCost = cost + at[depth].accessCost[i] + nextRows / ROWS_PER_COST;
        chainedAt[depth + 1] = chains(depth, i);
        return probe(prefix | (1L << at[depth].tables[i]), nextRows, nextCost, levels - 1);
    }

    /** Whether joining candidate {@code i} of {@code depth} by a whole unique key starts or goes on with a chain. */
    private boolean chains(int depth, int i) {
        return pruneLevel == 2 && at[depth].eqRef[i];
    }

    /**
     * In a chain ({@link #chainedAt}), the candidate MariaDB extends the plan by: the first table left, in base
     * order, that a whole unique key reaches; -1 outside a chain or when no table left is reached so, where
     * every table is tried.
     */
    private int chainLink(int depth, int count) {
        return chainedAt[depth] ? at[depth].chainLink(count, rank) : -1;
    }

    /**
     * Whether the search follows candidate {@code i} of {@code prefix}: under the cost bound and, with pruning,
     * adding fewer rows or costing less than the level's best so far, which it then may become.
     */
    private boolean followed(long prefix, int i, double nextRows, double nextCost) {
        if (nextCost >= bestCost) {
            return false;
        }
        if (pruneLevel == 0) {
            return true;
        }
        int depth = Long.bitCount(prefix);
        double bestRows = levelRowsAt[depth];
        double bestHereCost = levelCostAt[depth];
        if (bestRows <= nextRows && bestHereCost <= nextCost) {
            return false;
        }
        int t = at[depth].tables[i];
        // Kept as the level's best only if no table left could give it a better key lookup
        if (bestRows >= nextRows && bestHereCost >= nextCost
                && !(at[depth].addedRows[i] >= 2 && keyedLater(t, prefix, remaining(prefix) & ~(1L << t)))) {
            levelRowsAt[depth] = nextRows;
            levelCostAt[depth] = nextCost;
        }
        return true;
    }

    private long remaining(long prefix) {
        return ~prefix & (tables.size == Long.SIZE ? -1L : (1L << tables.size) - 1);
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

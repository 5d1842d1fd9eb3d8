package io.memogate.estimator.graph;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Counts the csg-cmp pairs of a join graph: the memo size of a dynamic-programming join search over
 * it, within a budget of enumeration steps.
 *
 * <p><b>Connected graphs.</b> Trees are counted exactly by formula at any size ({@link TreeCount}).
 * Other graphs are enumerated by DPccp ({@link Dpccp}), exactly while the budget lasts; past it, or
 * above 64 relations (where only the densest 64 are enumerated), the count is extrapolated from the
 * exactly counted part ({@link Extrapolation}) and marked {@link MemoSize#capped() capped}.
 *
 * <p><b>Disconnected graphs</b> (relations that no clause links, so some joins must be Cartesian
 * products). PostgreSQL's {@code join_search_one_level} (src/backend/optimizer/path/joinrels.c) joins
 * a relation only to relations it has a clause with, except a relation that has no clause left to any
 * relation outside it ("clauseless": a finished component, or a union of finished components), which
 * is joined to every single base relation. So the join relations it builds across components are
 * {@code U ∪ I}: {@code U} a union of finished components, {@code I} a connected part of one other
 * component. {@code U ∪ I} comes from the pairs {@code (U1 ∪ I1, U2 ∪ I2)} for every csg-cmp split
 * {@code {I1, I2}} of {@code I} and every way of sharing {@code U}'s components between the sides, plus
 * {@code (U, v)} when {@code I} is one vertex. Summed over components {@code C_1..C_k} with {@code P_j}
 * pairs each, that is
 * <pre>
 *   pairs = 3^(k-1) * sum(P_j) + (2^(k-1) - 1) * n
 * </pre>
 * which is {@code sum(P_j)} for a connected graph and {@code n (2^(n-1) - 1)} for {@code n} relations
 * without any clause (PostgreSQL tries both orders of two clauseless relations, and so does this
 * count). It is the number of {@code make_join_rel} calls PostgreSQL makes for inner joins. Under outer,
 * semi and anti joins ({@link JoinGraph#restricted()}) a connected graph counts only the pairs
 * {@code join_is_legal} allows ({@link JoinLegality}), always by enumeration (a restricted tree too); a
 * restriction whose sides lie in different components is dropped there, which counts more pairs, not fewer.
 *
 * <p><b>Extra clauses</b> ({@link MemoSize#extraClauses()}), and the crossings' squares
 * ({@link MemoSize#crossingSquares()}) counted and scaled alike, come with the pairs. A tree with one
 * clause per edge has none, by definition; a tree with more is summed per edge ({@link TreeCount});
 * other graphs count each pair's crossings during the enumeration ({@link Dpccp}). When the pairs are
 * extrapolated, the extra clauses are scaled with them: extrapolated pairs times the extra clauses per
 * pair of the part enumerated. That ratio grows with the size of a dense graph (an
 * {@code n}-clique with a class per edge has {@code n(n-1)3^(n-2)/2} crossings, about {@code n(n-1)/9}
 * per pair), so for such graphs a capped count's extra clauses fall short of the truth, and a cycle
 * closed only outside the enumerated part gets none (its {@code n(n-1)/2} are about {@code 1/n} of its pairs). A
 * count is capped only above about 1.6 million pairs with the default budget, gigabytes of planner
 * memory from the pairs alone, or above 64 relations. Across components only the pairs
 * {@code (U1 ∪ I1, U2 ∪ I2)} have crossings, those of their split {@code {I1, I2}}, since each
 * finished component lies wholly on one side; so the extra clauses are {@code 3^(k-1) * sum(E_j)}, and the
 * pairs {@code (U, v)}, {@code (2^(k-1) - 1) * n} of them, are the {@link MemoSize#cartesianPairs() Cartesian}
 * ones.
 *
 * <p><b>Parameterizations</b> ({@link MemoSize#parameterizations()}) are counted per pair during the
 * enumeration, only those PostgreSQL keeps ({@link ParameterSources}), scaled like the pairs when extrapolated; on a
 * tree without order restrictions by formula ({@link TreeCount}), where only a relation indexed for two of its
 * neighbours keeps any.
 * Across the components of a disconnected graph they go like the extra clauses: a finished component has
 * no relation outside it to be parameterized by, so a pair {@code (U1 ∪ I1, U2 ∪ I2)} has those of its
 * split {@code {I1, I2}}, {@code 3^(k-1)} times each, and the pairs {@code (U, v)} none.
 *
 * <p>The step budget is shared by the components, smallest first, each taking an equal share of what
 * is left. Instances are immutable and thread-safe; each count has its own working state.
 */
public final class CsgCmpCounter {

    /**
     * Default enumeration steps per count: 15-40 ms on a 2020s x86 core, and since each step visits at
     * most one pair and DPccp spends 1.0-1.25 steps per pair, a graph only runs out of it above about
     * 1.6 million pairs (some 3.5 GB of PostgreSQL planner memory).
     */
    public static final long DEFAULT_STEP_BUDGET = 2_000_000L;

    private final long stepBudget;

    public CsgCmpCounter() {
        this(DEFAULT_STEP_BUDGET);
    }

    /** @param stepBudget enumeration steps one count may spend, at least 1 */
    public CsgCmpCounter(long stepBudget) {
        if (stepBudget < 1) {
            throw new IllegalArgumentException("stepBudget must be >= 1, was " + stepBudget);
        }
        this.stepBudget = stepBudget;
    }

    public long stepBudget() {
        return stepBudget;
    }

    /** The memo size of a join search over {@code graph}; never throws for a well-formed graph. */
    public MemoSize count(JoinGraph graph) {
        List<int[]> components = graph.components();
        if (components.size() <= 1) {
            return countConnected(graph, stepBudget);
        }
        components.sort(Comparator.comparingInt(c -> c.length));
        double componentPairs = 0;
        double componentExtra = 0;
        double componentSquares = 0;
        double parameterizations = 0;
        double relations = 0;
        boolean exact = true;
        long steps = 0;
        for (int i = 0; i < components.size(); i++) {
            long share = Math.max(1, (stepBudget - steps) / (components.size() - i));
            MemoSize part = countConnected(graph.induced(components.get(i)), share);
            componentPairs += part.pairs();
            componentExtra += part.extraClauses();
            componentSquares += part.crossingSquares();
            parameterizations += part.parameterizations();
            relations += part.joinRelations();
            exact &= part.exact();
            steps += part.steps();
        }
        int k = components.size();
        double cartesian = saturate((Math.pow(2, k - 1) - 1) * graph.size());
        double pairs = saturate(Math.pow(3, k - 1) * componentPairs + cartesian);
        // 3^(k-1) overflows above 647 components; 0 extra clauses stay 0 rather than 0 * infinity.
        double extra = componentExtra == 0 ? 0 : Math.pow(3, k - 1) * componentExtra;
        double squares = componentSquares == 0 ? 0 : Math.pow(3, k - 1) * componentSquares;
        double parameterized = parameterizations == 0 ? 0 : Math.pow(3, k - 1) * parameterizations;
        // The relations linked pairs make: each component's, alone or joined to the others' sets: never fewer than
        // PostgreSQL's level search makes so, up to 1.7x as many for several one-edge components (JoinRelationsTest).
        // The sets only a Cartesian product makes keep as few paths as their pairs, priced with them
        // (bytesPerCartesianPair): counting them too took TPC-DS q88's eight single-row sub-selects from 1.8x to 2.8x.
        double joinRelations = relations == 0 ? 0 : Math.min(pairs, saturate(Math.pow(2, k - 1) * relations));
        return new MemoSize(pairs, saturate(extra), saturate(squares), Math.min(cartesian, pairs),
                saturate(parameterized), joinRelations, exact, steps);
    }

    /**
     * Of {@code memo}'s linked pairs (the count of {@code graph}), those whose join relation holds one of
     * {@code vertices}: all of them less the pairs of the graph without those vertices, whose connected
     * sets are exactly the ones holding none of them. Counted like any other graph (within the budget, per
     * component); never below 0 when {@code memo} was extrapolated.
     */
    public double linkedPairsHolding(JoinGraph graph, MemoSize memo, int[] vertices) {
        if (vertices.length == 0) {
            return 0;
        }
        boolean[] held = new boolean[graph.size()];
        for (int v : vertices) {
            held[v] = true;
        }
        int[] rest = IntStream.range(0, graph.size()).filter(v -> !held[v]).toArray();
        JoinGraph without = graph.induced(rest);
        double pairsWithout = 0;
        for (int[] component : without.components()) {
            pairsWithout += countConnected(without.induced(component), stepBudget).pairs();
        }
        return Math.max(0, memo.pairs() - memo.cartesianPairs() - pairsWithout);
    }

    /**
     * Pairs of a connected graph: a tree by formula, anything else (and a tree with order restrictions) by
     * enumeration with {@code budget}.
     */
    static MemoSize countConnected(JoinGraph graph, long budget) {
        int n = graph.size();
        if (n <= 1) {
            return MemoSize.NONE;
        }
        if (graph.edgeCount() == n - 1 && !graph.restricted()) {
            TreeCount.Subtrees subtrees = TreeCount.subtrees(graph);
            double pairs = subtrees.pairs();
            return new MemoSize(pairs, TreeCount.extraClauses(graph), TreeCount.crossingSquares(graph), 0,
                    TreeCount.parameterizations(graph), Math.min(pairs, subtrees.joinRelations()), true, n);
        }
        return enumerate(graph, budget);
    }

    /**
     * DPccp over the first (at most 64) vertices in maximum-adjacency order, numbered so that the
     * enumeration completes growing balls of that order; extrapolated if it cannot finish. Package
     * access so that tests can enumerate trees too.
     */
    static MemoSize enumerate(JoinGraph graph, long budget) {
        int n = graph.size();
        int[] order = maxAdjacencyOrder(graph);
        int ballSize = Math.min(n, JoinGraph.MASK_LIMIT);
        int[] numbering = new int[ballSize];
        for (int i = 0; i < ballSize; i++) {
            numbering[i] = order[ballSize - 1 - i];
        }
        JoinGraph ball = graph.induced(numbering);
        Dpccp.Result result = Dpccp.run(ball, budget);
        if (result.completed() == n) {
            return new MemoSize(result.pairs(), result.extraClauses(), result.crossingSquares(), 0,
                    result.parameterizations(), result.joinRelations(), true, result.steps());
        }
        int completed = result.completed();
        int[] covered = new int[completed];
        System.arraycopy(order, 0, covered, 0, completed);
        double unseenCycles = Extrapolation.unseenCycles(
                completed, graph.induced(covered).edgeCount(), n, graph.edgeCount());
        double pairs = Extrapolation.estimate(result.ballPairs(), completed, n, result.pairs(), unseenCycles);
        // Nothing enumerated (a budget of a step or two): one clause per pair, the least a linked pair has.
        double extraPerPair = result.pairs() > 0 ? result.extraClauses() / result.pairs() : 0;
        double squaresPerPair = result.pairs() > 0 ? result.crossingSquares() / result.pairs() : 0;
        double parameterizationsPerPair = result.pairs() > 0 ? result.parameterizations() / result.pairs() : 0;
        // Nothing enumerated: a relation per pair, as in a tree's smallest sets.
        double relationsPerPair = result.pairs() > 0 ? result.joinRelations() / result.pairs() : 1;
        return new MemoSize(pairs, saturate(pairs * extraPerPair), saturate(pairs * squaresPerPair), 0,
                saturate(pairs * parameterizationsPerPair), Math.min(pairs, saturate(pairs * relationsPerPair)), false,
                result.steps());
    }

    /** Counts past a double's range (or 0 * infinity) are "more than any server has". */
    private static double saturate(double count) {
        return Double.isFinite(count) ? count : Double.MAX_VALUE;
    }

    /**
     * Maximum-adjacency order from a vertex of highest degree: each next vertex has the most edges into
     * those already ordered; ties go to the one reached first (so a tree is ordered breadth-first), then
     * to higher degree, then to the lower number. In a connected graph every prefix is connected, and
     * dense regions come first.
     */
    static int[] maxAdjacencyOrder(JoinGraph graph) {
        int n = graph.size();
        int[] degree = new int[n];
        int start = 0;
        for (int v = 0; v < n; v++) {
            degree[v] = graph.degree(v);
            if (degree[v] > degree[start]) {
                start = v;
            }
        }
        int[] links = new int[n];
        int[] reached = new int[n];
        Arrays.fill(reached, Integer.MAX_VALUE);
        boolean[] taken = new boolean[n];
        int[] order = new int[n];
        int next = start;
        for (int i = 0; i < n; i++) {
            order[i] = next;
            taken[next] = true;
            for (int w : graph.neighbours(next)) {
                links[w]++;
                reached[w] = Math.min(reached[w], i);
            }
            next = -1;
            for (int v = 0; v < n; v++) {
                if (!taken[v] && (next < 0 || precedes(v, next, links, reached, degree))) {
                    next = v;
                }
            }
        }
        return order;
    }

    private static boolean precedes(int v, int w, int[] links, int[] reached, int[] degree) {
        if (links[v] != links[w]) {
            return links[v] > links[w];
        }
        if (reached[v] != reached[w]) {
            return reached[v] < reached[w];
        }
        return degree[v] > degree[w];
    }
}

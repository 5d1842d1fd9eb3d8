package io.memogate.estimator.graph;

import java.util.Arrays;
import java.util.function.LongUnaryOperator;

/**
 * Exact csg-cmp pairs of a tree, in linear time, at any size.
 *
 * <p>In a tree every connected set {@code S} is a subtree, and it splits into two connected, linked
 * halves in exactly {@code |S| - 1} ways (cut one of its edges), so the unordered pair count is
 * {@code sum over subtrees S of (|S| - 1)}. Rooting the tree, {@code f(v)} counts the subtrees whose top
 * is {@code v} and {@code g(v)} sums their sizes:
 * {@code f(v) = prod(1 + f(c))} over its children {@code c}, and {@code g(v)} follows as each child is
 * merged in (below). Chains give (n^3-n)/6 and stars (n-1)2^(n-2), the closed forms of Moerkotte &amp; Neumann.
 * Trees (chains, stars, snowflakes) are the commonest join graphs, so they never need the budget.
 *
 * <p>Crossings (see {@link MemoSize}): every clause of a tree is over the two ends of one edge (a
 * clause over three relations would close a triangle), and a pair {@code (S1, S2)} is linked only by
 * the edge it was cut at, so its crossings are that edge's clauses. The pairs cut at edge
 * {@code (p, c)}, {@code c} a child of {@code p}, are the subtrees holding both ends: {@code f(c)} ways
 * below times {@code up(c)}, the connected sets holding {@code p} but nothing of {@code c}'s subtree.
 * Summing {@code (clauses(e) - 1) * pairs(e)} over the edges with clauses gives the extra clauses, and
 * {@code (clauses(e)^2 - 1) * pairs(e)} the crossings' squares: none with one clause per edge.
 */
final class TreeCount {

    private TreeCount() {
    }

    /** Pairs of {@code tree}, which must be connected with {@code size() - 1} edges; saturates at {@link Double#MAX_VALUE}. */
    static double pairs(JoinGraph tree) {
        return subtrees(tree).pairs();
    }

    /**
     * The subtrees of {@code tree} (connected, {@code size() - 1} edges), counted with their sizes summed, in one
     * pass: what its pairs and its join relations both follow from.
     *
     * @param count subtrees, single vertices included
     * @param sizes their sizes, summed
     * @param vertices the tree's vertices
     */
    record Subtrees(double count, double sizes, int vertices) {

        /** {@code sum over subtrees S of (|S| - 1)}: each splits in two at any of its edges; saturates. */
        double pairs() {
            double pairs = sizes - count;
            return Double.isFinite(pairs) ? pairs : Double.MAX_VALUE;
        }

        /**
         * The join relations ({@link MemoSize#joinRelations()}): the subtrees of two or more vertices, every one made
         * by the pairs cut at its edges; saturates.
         */
        double joinRelations() {
            double relations = count - vertices;
            return Double.isFinite(relations) ? relations : Double.MAX_VALUE;
        }
    }

    static Subtrees subtrees(JoinGraph tree) {
        int n = tree.size();
        if (n <= 1) {
            return new Subtrees(n, n, n);
        }
        int[] parent = new int[n];
        int[] order = depthFirst(tree, parent);
        // Per vertex, over the children merged so far: f = subtrees topped here, g = their size sum.
        // Merging a child (fc, gc): g' = g (1 + fc) + f gc, f' = f (1 + fc). No division, so the
        // result stays an exact integer while it fits a double's 53 bits.
        double[] f = new double[n];
        double[] g = new double[n];
        Arrays.fill(f, 1);
        Arrays.fill(g, 1);
        double subtrees = 0;
        double sizes = 0;
        for (int i = n - 1; i >= 0; i--) {
            int v = order[i];
            subtrees += f[v];
            sizes += g[v];
            int p = parent[v];
            if (p >= 0) {
                g[p] = g[p] * (1 + f[v]) + f[p] * g[v];
                f[p] *= 1 + f[v];
            }
        }
        return new Subtrees(subtrees, sizes, n);
    }

    /**
     * The extra clauses of {@code tree} (connected, {@code size() - 1} edges): over its pairs, the clauses on
     * the edge each pair is cut at, less one, and none for an edge that only join filters make; saturates at
     * {@link Double#MAX_VALUE}.
     */
    static double extraClauses(JoinGraph tree) {
        return perCutEdge(tree, clauses -> clauses - 1);
    }

    /** The crossings' squares of {@code tree} less one per pair, as {@link #extraClauses} sums the crossings. */
    static double crossingSquares(JoinGraph tree) {
        return perCutEdge(tree, clauses -> clauses * clauses - 1);
    }

    /** Over the pairs of {@code tree}, {@code cost} of the clauses on the edge each is cut at, for edges with clauses. */
    private static double perCutEdge(JoinGraph tree, LongUnaryOperator cost) {
        if (tree.size() <= 1 || tree.clauseCount() == 0) {
            return 0;
        }
        Rooted rooted = Rooted.of(tree);
        // The clauses on the edge from each vertex up to its parent.
        int[] clauses = new int[tree.size()];
        for (int c = 0; c < tree.clauseCount(); c++) {
            int[] ends = tree.clause(c);
            clauses[rooted.parent[ends[0]] == ends[1] ? ends[0] : ends[1]]++;
        }
        double total = 0;
        for (int c = 0; c < tree.size(); c++) {
            if (rooted.parent[c] >= 0) {
                // The pairs cut at the edge above c: a subtree topped at c, and a connected set above it.
                total += Math.max(0, cost.applyAsLong(clauses[c])) * rooted.below[c].count() * rooted.above[c].count();
            }
        }
        return Double.isFinite(total) ? total : Double.MAX_VALUE;
    }

    /**
     * The parameterizations PostgreSQL keeps in {@code tree} (connected, {@code size() - 1} edges, no order
     * restrictions; {@link MemoSize#parameterizations()}), summed over its pairs; saturates at
     * {@link Double#MAX_VALUE}. Without order restrictions only the star-schema case keeps any
     * ({@link ParameterSources}). In a tree an outside relation {@code w} touches a connected set {@code S} through
     * one relation {@code r}, so {@code w} counts for {@code S} when {@code r} can be scanned by an index
     * parameterized by {@code w} and by another neighbour inside {@code S}; and {@code S} is made by {@code |S| - 1}
     * pairs. So across the edge above each child {@code c} of {@code p}: if {@code p} parameterizes {@code c}, the
     * subtrees topped at {@code c} that hold a child parameterizing {@code c} (all of them less the <em>bare</em>
     * ones, which hold none); if {@code c} parameterizes {@code p}, the sets holding {@code p} but nothing of
     * {@code c}'s subtree that hold {@code p}'s parent or another child, either parameterizing {@code p}.
     */
    static double parameterizations(JoinGraph tree) {
        int n = tree.size();
        if (n <= 1 || !tree.hasIndexScans()) {
            return 0;
        }
        Rooted rooted = Rooted.of(tree);
        double total = 0;
        for (int v = 0; v < n; v++) {
            int up = rooted.parent[v];
            int[] children = Arrays.stream(tree.neighbours(v)).filter(w -> w != up).toArray();
            if (up >= 0 && tree.indexScannableBy(v, up)) {
                Family bare = Family.ONE_VERTEX;
                for (int c : children) {
                    if (!tree.indexScannableBy(v, c)) {
                        bare = bare.times(rooted.below[c].orNothing());
                    }
                }
                total += rooted.below[v].pairs() - bare.pairs();
            }
            Family overBare = up < 0 || tree.indexScannableBy(v, up) ? Family.NOTHING : rooted.above[v].orNothing();
            for (int c : children) {
                if (tree.indexScannableBy(v, c)) {
                    Family bare = overBare.times(Family.ONE_VERTEX);
                    for (int sibling : children) {
                        if (sibling != c && !tree.indexScannableBy(v, sibling)) {
                            bare = bare.times(rooted.below[sibling].orNothing());
                        }
                    }
                    total += rooted.above[c].pairs() - bare.pairs();
                }
            }
        }
        return Double.isFinite(total) ? total : Double.MAX_VALUE;
    }

    /**
     * The tree rooted at vertex 0, with per vertex {@code below[v]}, the subtrees topped at {@code v}
     * ({@code f(v)} sets), and {@code above[v]}, the connected sets holding {@code v}'s parent but nothing of
     * {@code v}'s subtree ({@code up(v)} sets; none for the root), each counted with its sets' sizes.
     *
     * <p>Both families are products of independent choices (per child subtree: leave it out, or take one
     * of its sets), so each is computed as a {@link Family}, a count with a size sum, combined with
     * {@link Family#times}; no division, so the counts stay exact integers while they fit 53 bits.
     */
    private record Rooted(int[] parent, Family[] below, Family[] above) {

        static Rooted of(JoinGraph tree) {
            int n = tree.size();
            int[] parent = new int[n];
            int[] order = depthFirst(tree, parent);
            Family[] below = new Family[n];
            for (int i = n - 1; i >= 0; i--) {
                int v = order[i];
                Family family = Family.ONE_VERTEX;
                for (int w : tree.neighbours(v)) {
                    if (w != parent[v]) {
                        family = family.times(below[w].orNothing());
                    }
                }
                below[v] = family;
            }
            // up(c) for each child c of v: the ways above v (none for the root), times each sibling's
            // choices, taken as the product of the siblings before c and of those after it, then v itself.
            Family[] above = new Family[n];
            for (int i = 0; i < n; i++) {
                int v = order[i];
                Family overV = parent[v] < 0 ? Family.NOTHING : above[v].orNothing();
                int[] children = Arrays.stream(tree.neighbours(v)).filter(w -> w != parent[v]).toArray();
                Family[] after = new Family[children.length + 1];
                after[children.length] = Family.NOTHING;
                for (int k = children.length - 1; k >= 0; k--) {
                    after[k] = after[k + 1].times(below[children[k]].orNothing());
                }
                Family before = Family.NOTHING;
                for (int k = 0; k < children.length; k++) {
                    int c = children[k];
                    above[c] = overV.times(before).times(after[k + 1]).times(Family.ONE_VERTEX);
                    before = before.times(below[c].orNothing());
                }
            }
            return new Rooted(parent, below, above);
        }
    }

    /**
     * A family of vertex sets: how many, and their sizes summed. The product of two families, each set
     * of one joined with each set of the other, has {@code count * count'} sets whose sizes sum to
     * {@code count * sizes' + sizes * count'}.
     */
    private record Family(double count, double sizes) {

        /** Only the empty set: the choice to take nothing. */
        static final Family NOTHING = new Family(1, 0);
        /** One set of one vertex. */
        static final Family ONE_VERTEX = new Family(1, 1);

        Family times(Family other) {
            return new Family(count * other.count, count * other.sizes + sizes * other.count);
        }

        /** The pairs that make this family's sets, each set of a tree being made by one pair per edge inside it. */
        double pairs() {
            return sizes - count;
        }

        /** This family, or nothing of it: the empty set added. */
        Family orNothing() {
            return new Family(count + 1, sizes);
        }
    }

    /** Depth-first order from vertex 0, filling {@code parent} (-1 for the root); parents come before children. */
    private static int[] depthFirst(JoinGraph tree, int[] parent) {
        int n = tree.size();
        int[] order = new int[n];
        boolean[] seen = new boolean[n];
        int[] stack = new int[n];
        int top = 0;
        int visited = 0;
        stack[top++] = 0;
        seen[0] = true;
        parent[0] = -1;
        while (top > 0) {
            int v = stack[--top];
            order[visited++] = v;
            for (int w : tree.neighbours(v)) {
                if (!seen[w]) {
                    seen[w] = true;
                    parent[w] = v;
                    stack[top++] = w;
                }
            }
        }
        return order;
    }
}

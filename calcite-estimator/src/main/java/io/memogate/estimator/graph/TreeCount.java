package io.memogate.estimator.graph;

import java.util.Arrays;

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
 */
final class TreeCount {

    private TreeCount() {
    }

    /** Pairs of {@code tree}, which must be connected with {@code size() - 1} edges; saturates at {@link Double#MAX_VALUE}. */
    static double pairs(JoinGraph tree) {
        int n = tree.size();
        if (n <= 1) {
            return 0;
        }
        // Depth-first order from vertex 0; children come after their parent, so a reverse sweep
        // sees every child before its parent.
        int[] order = new int[n];
        int[] parent = new int[n];
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
        double pairs = sizes - subtrees;
        return Double.isFinite(pairs) ? pairs : Double.MAX_VALUE;
    }
}

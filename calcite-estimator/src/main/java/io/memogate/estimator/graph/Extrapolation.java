package io.memogate.estimator.graph;

/**
 * Estimates the pair count of a connected graph from the exact counts of a growing part of it.
 *
 * <p>The caller numbers the vertices in maximum-adjacency order (see
 * {@link CsgCmpCounter#maxAdjacencyOrder}), so the parts DPccp completes are connected "balls" that
 * take the densest region first and otherwise grow breadth-first: {@code ball[k]} is the exact count of
 * the first {@code k} vertices. When the budget stops the count after {@code K} of {@code n} vertices,
 * the growth of {@code ball[k]} over the last four sizes decides the form:
 * <ul>
 *   <li><b>polynomial</b>, when the local exponent {@code p_k = ln(ball[k]/ball[k-1]) / ln(k/(k-1))}
 *   falls all along the window (chains: 3.19, 3.11, ... down to 3; cycles): {@code ball[K] *
 *   (n/K)^max(p)};
 *   <li><b>geometric</b> otherwise (stars: ratio 2(k-1)/(k-2) falling to 2; cliques: falling to 3;
 *   a star of chains, whose exponent climbs as the arms lengthen): {@code ball[K] *
 *   max(ratio)^(n-K)}.
 * </ul>
 * Either is multiplied by 3 for each cycle (edge beyond a spanning tree) that the unseen vertices add
 * beyond the ball's own cycles per vertex: closing a chain into a cycle triples its count,
 * (n^3-2n^2+n)/2 against (n^3-n)/6, and it is the step the ball cannot see. The result is kept between
 * the pairs already counted and the clique's count for {@code n} (no graph of {@code n} relations has
 * more); it grows with {@code n}. For the regular shapes the last ratios and exponents are falling, so
 * taking the largest of the window over-estimates, which is the side to err on.
 *
 * <p>Where it can under-estimate: a graph whose unexplored part is denser than the explored ball (the
 * ordering makes this rare), or one whose unseen cycles interlock (a chord across a long cycle
 * multiplies its count by more than 3). With the default budget a graph of at most 64 relations only
 * gets here above about 1.6 million pairs, gigabytes of planner memory, and the estimate is never
 * below the pairs already counted; graphs above 64 relations get here whatever their size.
 */
final class Extrapolation {

    private static final int WINDOW = 4;
    private static final double CYCLE_FACTOR = 3;

    private Extrapolation() {
    }

    /**
     * @param ball exact counts of the first {@code k} vertices, valid for {@code 1 <= k <= completed}
     * @param completed {@code K}, how many vertices the exact counts cover ({@code < n})
     * @param n relations in the whole graph
     * @param counted pairs already counted (a lower bound of the answer)
     * @param unseenCycles cycles the {@code n - K} unseen vertices add beyond the ball's rate (see
     *     {@link #unseenCycles})
     */
    static double estimate(double[] ball, int completed, int n, double counted, double unseenCycles) {
        double ceiling = cliquePairs(n);
        if (completed < 4) {
            // Too little counted to see how the graph grows, and the budget ran out on a tiny part of
            // it, so it is dense. The clique count is the only safe answer.
            return ceiling;
        }
        int first = Math.max(4, completed - WINDOW + 1);
        double maxRatio = 1;
        double maxExponent = 0;
        boolean exponentsFall = completed - first >= 2;
        double previousExponent = Double.POSITIVE_INFINITY;
        for (int k = first; k <= completed; k++) {
            double ratio = ball[k] / ball[k - 1];
            double exponent = Math.log(ratio) / Math.log((double) k / (k - 1));
            maxRatio = Math.max(maxRatio, ratio);
            maxExponent = Math.max(maxExponent, exponent);
            exponentsFall &= exponent <= previousExponent;
            previousExponent = exponent;
        }
        double growth = exponentsFall
                ? Math.pow((double) n / completed, maxExponent)
                : Math.pow(maxRatio, n - completed);
        double estimate = ball[completed] * growth * Math.pow(CYCLE_FACTOR, unseenCycles);
        // A connected ball of 4 or more has pairs, so 0 * infinity = NaN cannot arise; if it did,
        // the ceiling is the safe answer.
        return Double.isNaN(estimate) ? ceiling : Math.min(Math.max(estimate, counted), ceiling);
    }

    /**
     * Cycles (edges beyond a spanning tree) that the vertices outside the ball add, less what the ball's
     * own cycles per vertex would predict for them; at least 0.
     */
    static double unseenCycles(int ballVertices, int ballEdges, int vertices, int edges) {
        double ballCycles = ballEdges - (ballVertices - 1);
        double unseen = (edges - ballEdges) - (vertices - ballVertices);
        double expected = Math.ceil(ballCycles * (vertices - ballVertices) / ballVertices);
        return Math.max(0, unseen - expected);
    }

    /** (3^n - 2^(n+1) + 1) / 2, the pairs of an n-clique, saturating at {@link Double#MAX_VALUE}. */
    static double cliquePairs(int n) {
        double pairs = (Math.pow(3, n) - Math.pow(2, n + 1) + 1) / 2;
        return Double.isFinite(pairs) ? pairs : Double.MAX_VALUE;
    }
}

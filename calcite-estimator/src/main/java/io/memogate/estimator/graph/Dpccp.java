package io.memogate.estimator.graph;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Counts csg-cmp pairs by DPccp's enumeration (Moerkotte &amp; Neumann, "Analysis of Two Existing and One
 * New Dynamic Programming Algorithm for the Generation of Optimal Bushy Join Trees without Cross
 * Products", VLDB 2006, section 3: EnumerateCsg, EnumerateCsgRec, EnumerateCmp), stopping after a
 * budget of steps. Vertex sets are {@code long} bitmasks, so the graph has at most 64 relations.
 *
 * <p>EnumerateCsg starts from each vertex {@code i} in descending order and, with the exclusion set
 * {@code B_i = {v_j | j <= i}}, visits every connected set whose smallest vertex is {@code i}; for each
 * such {@code S1}, EnumerateCmp visits every connected {@code S2} adjacent to {@code S1} and disjoint
 * from {@code S1 ∪ B_min(S1)}, that is, with all its vertices above {@code min(S1)}. So each unordered
 * pair is visited once, from the side holding the smaller vertex. Any numbering is correct for
 * counting; the caller numbers the vertices so that after start vertex {@code i} is done the count so
 * far is exactly the pair count of the subgraph induced by {@code {i..n-1}} (every pair visited so far
 * lies inside it, and every pair inside it has its smallest vertex there). Those prefix counts are
 * what {@link Extrapolation} grows from when the budget runs out.
 *
 * <p>Alongside the pairs it sums their crossings beyond the first, and their squares beyond one: the clauses of the graph with
 * relations on both sides of a pair (see {@link MemoSize}; join filters are edges, not clauses). Clauses over exactly two relations, the common case, are
 * counted by popcount: for each vertex {@code v} of the smaller side, {@code bitCount(binary[v] &
 * other side)}, where {@code binary[v]} holds the first two-relation clause of each of {@code v}'s
 * partners. Every other clause (over three or more relations, or a second clause over the same two)
 * is one mask among {@code wide}, with identical masks merged into one with a multiplicity, and
 * crosses the pair when it meets both sides. So a pair costs {@code min(|S1|, |S2|)} popcounts plus
 * one test per distinct wide mask, and nothing is allocated per pair.
 *
 * <p>A graph with order restrictions counts only the pairs PostgreSQL builds ({@link JoinLegality}): a pair
 * is counted when both sides were built by a counted pair and the restrictions allow it, with its crossings
 * and parameterizations. That needs every pair offered after all pairs of its two sides, the order dynamic
 * programming needs; DPccp gives it when EnumerateCsgRec extends a set by the subsets of its neighbourhood in
 * ascending order (a subset before its supersets), so under restrictions it does. Without them it takes the
 * subsets in descending order, which counts the same pairs.
 *
 * <p>One instance per count: the running totals (and the {@code S1} whose complements are being
 * enumerated) are fields only to keep the recursion's signatures short.
 */
final class Dpccp {

    /**
     * @param ballPairs {@code ballPairs[k]} is the exact pair count of the subgraph induced by the
     *     {@code k} highest-numbered vertices, for {@code k <= completed}
     * @param completed how many start vertices were finished; {@code n} when the count is exact
     * @param pairs pairs visited in all, including those of an unfinished start vertex
     * @param extraClauses the crossings of each of those {@code pairs} beyond its first, summed
     * @param crossingSquares the square of each linked pair's crossings less one, summed
     * @param parameterizations over the pairs visited, the relations outside the pair's join relation that
     *     an index scan inside it can be parameterized by and PostgreSQL keeps paths for ({@link ParameterSources})
     * @param joinRelations the sets of two or more relations those pairs make ({@link MemoSize#joinRelations()})
     */
    record Result(double[] ballPairs, int completed, double pairs, double extraClauses, double crossingSquares,
                  double parameterizations, double joinRelations, long steps) {
    }

    private final long[] adjacency;
    /** Per vertex, the neighbours an index scan of it can be parameterized by. */
    private final long[] indexScanParameters;
    /** Per vertex, the partners it shares a two-relation clause with (the first such clause of each). */
    private final long[] binary;
    /** The other clauses as masks, distinct, with how many clauses each stands for. */
    private final long[] wide;
    private final int[] wideCount;
    private final long budget;
    private long steps;
    private double pairs;
    private double extraClauses;
    private double crossingSquares;
    private double parameterizations;
    private double joinRelations;
    /**
     * Which outside relations a join relation's paths may stay parameterized by; null when no vertex has an index
     * scan parameterized by a neighbour, and then no pair looks for one.
     */
    private final ParameterSources sources;
    private long s1;
    /** The neighbours an index scan inside {@link #s1} can be parameterized by. */
    private long s1Parameters;
    private boolean exhausted;
    /** The restrictions' judge; null for a graph joined in any order. */
    private final JoinLegality legality;

    private Dpccp(JoinGraph graph, long budget) {
        adjacency = new long[graph.size()];
        indexScanParameters = new long[graph.size()];
        binary = new long[graph.size()];
        for (int v = 0; v < adjacency.length; v++) {
            adjacency[v] = graph.neighbourMask(v);
            indexScanParameters[v] = graph.indexScanParameterMask(v);
        }
        sources = graph.hasIndexScans() ? new ParameterSources(graph) : null;
        Map<Long, Integer> others = new LinkedHashMap<>();
        for (int c = 0; c < graph.clauseCount(); c++) {
            int[] clause = graph.clause(c);
            if (clause.length == 2 && (binary[clause[0]] & (1L << clause[1])) == 0) {
                binary[clause[0]] |= 1L << clause[1];
                binary[clause[1]] |= 1L << clause[0];
            } else {
                long mask = 0;
                for (int v : clause) {
                    mask |= 1L << v;
                }
                others.merge(mask, 1, Integer::sum);
            }
        }
        wide = others.keySet().stream().mapToLong(Long::longValue).toArray();
        wideCount = others.values().stream().mapToInt(Integer::intValue).toArray();
        this.budget = budget;
        legality = graph.restricted() ? new JoinLegality(graph.restrictions()) : null;
    }

    /** Enumerates {@code graph} (at most 64 relations) with at most {@code budget} steps. */
    static Result run(JoinGraph graph, long budget) {
        return new Dpccp(graph, budget).run();
    }

    private Result run() {
        int n = adjacency.length;
        double[] ballPairs = new double[n + 1];
        int completed = 0;
        for (int i = n - 1; i >= 0 && !exhausted; i--) {
            long start = 1L << i;
            enumerateCmp(start);
            enumerateCsgRec(start, upTo(i), false);
            if (!exhausted) {
                completed = n - i;
                ballPairs[completed] = pairs;
            }
        }
        return new Result(ballPairs, completed, pairs, extraClauses, crossingSquares, parameterizations, joinRelations,
                steps);
    }

    /**
     * EnumerateCsgRec(S, X): extends {@code s} by every non-empty subset of its neighbourhood outside
     * {@code x}. In csg mode each extension is a connected set to find complements for; in cmp mode
     * ({@code complement}) each extension is itself a complement, that is, one more pair.
     */
    private void enumerateCsgRec(long s, long x, boolean complement) {
        long neighbourhood = neighbours(s) & ~x;
        if (neighbourhood == 0) {
            return;
        }
        for (long sub = first(neighbourhood); sub != 0; sub = next(sub, neighbourhood)) {
            if (!step()) {
                return;
            }
            if (complement) {
                pair(s | sub);
            } else {
                enumerateCmp(s | sub);
                if (exhausted) {
                    return;
                }
            }
        }
        long excluded = x | neighbourhood;
        for (long sub = first(neighbourhood); sub != 0; sub = next(sub, neighbourhood)) {
            enumerateCsgRec(s | sub, excluded, complement);
            if (exhausted) {
                return;
            }
        }
    }

    /**
     * The first subset of {@code set} to extend by: all of it, or under restrictions the smallest, so that
     * subsets come in ascending order, each after its own subsets (see the class comment).
     */
    private long first(long set) {
        return legality == null ? set : set & -set;
    }

    private long next(long subset, long set) {
        return legality == null ? (subset - 1) & set : (subset - set) & set;
    }

    /** EnumerateCmp(S1): every connected complement of {@code s1}, one pair each. */
    private void enumerateCmp(long s1) {
        if (!step()) {
            return;
        }
        this.s1 = s1;
        if (legality == null && Long.bitCount(s1) >= 2) {
            // Without restrictions every connected set is some pair's join relation, and it is visited here once.
            joinRelations++;
        }
        s1Parameters = sources != null ? parameters(s1) : 0;
        long excluded = upTo(Long.numberOfTrailingZeros(s1)) | s1;
        long neighbourhood = neighbours(s1) & ~excluded;
        for (long rest = neighbourhood; rest != 0; ) {
            int v = 63 - Long.numberOfLeadingZeros(rest);
            rest &= ~(1L << v);
            if (!step()) {
                return;
            }
            pair(1L << v);
            enumerateCsgRec(1L << v, excluded | (upTo(v) & neighbourhood), true);
            if (exhausted) {
                return;
            }
        }
    }

    /** One more pair: {@link #s1} with {@code s2}. */
    private void pair(long s2) {
        if (legality != null) {
            int built = legality.builtCount();
            if (!legality.build(s1, s2)) {
                return;
            }
            joinRelations += legality.builtCount() - built;
        }
        pairs++;
        boolean firstSmaller = Long.bitCount(s1) <= Long.bitCount(s2);
        long small = firstSmaller ? s1 : s2;
        long other = firstSmaller ? s2 : s1;
        long count = 0;
        for (long bits = small; bits != 0; bits &= bits - 1) {
            count += Long.bitCount(binary[Long.numberOfTrailingZeros(bits)] & other);
        }
        for (int c = 0; c < wide.length; c++) {
            if ((wide[c] & s1) != 0 && (wide[c] & s2) != 0) {
                count += wideCount[c];
            }
        }
        // A pair linked only by join filters crosses no clause: it adds nothing, not -1.
        extraClauses += Math.max(0, count - 1);
        crossingSquares += Math.max(0, count * count - 1);
        if (sources != null) {
            long joined = s1 | s2;
            long outside = (s1Parameters | parameters(s2)) & ~joined;
            if (outside != 0) {
                parameterizations += Long.bitCount(sources.kept(joined, outside));
            }
        }
    }

    /** The neighbours an index scan of some relation of {@code set} can be parameterized by (some may be inside). */
    private long parameters(long set) {
        long result = 0;
        for (long bits = set; bits != 0; bits &= bits - 1) {
            result |= indexScanParameters[Long.numberOfTrailingZeros(bits)];
        }
        return result;
    }

    private long neighbours(long set) {
        long result = 0;
        for (long bits = set; bits != 0; bits &= bits - 1) {
            result |= adjacency[Long.numberOfTrailingZeros(bits)];
        }
        return result & ~set;
    }

    private boolean step() {
        if (++steps > budget) {
            exhausted = true;
        }
        return !exhausted;
    }

    /** {@code {v_j | j <= i}}. */
    private static long upTo(int i) {
        return i == 63 ? -1L : (1L << (i + 1)) - 1;
    }
}

package io.memogate.estimator.graph;

import java.util.List;

/**
 * Which relations outside a join relation PostgreSQL lets its paths be parameterized by. An index scan inside
 * the set may be parameterized by an outside neighbour ({@link JoinGraph#indexScanParameterMask}), but
 * {@code add_paths_to_joinrel} (src/backend/optimizer/path/joinpath.c) keeps a join path that still needs
 * such a parameter only in two cases, and builds no other ({@code try_nestloop_path} and its hash and merge
 * siblings return before allocating it):
 * <ul>
 *   <li>the parameter comes from a <em>param source</em>: for each outer, semi or anti join whose right side
 *       the set overlaps without holding any of its left side, every relation outside that right side
 *       ({@code param_source_rels}). An order restriction is what can keep a set from being joined to the
 *       parameter's source directly, so only there is the parameterized join worth keeping;</li>
 *   <li>the star-schema exception ({@code allow_star_schema_join}): a nested loop whose inner side is
 *       parameterized both by its outer side and by a relation outside the pair. It needs a relation whose
 *       index scans can be parameterized by two neighbours or more, one of them in the set.</li>
 * </ul>
 * So without outer or semi joins a tree keys-to-ids (every relation's index reached by one neighbour) keeps
 * no parameterized join relation at all, while a fact table indexed for each of its dimensions does.
 *
 * <p>Sets are {@code long} bitmasks over at most 64 relations. Immutable.
 */
final class ParameterSources {

    private final long all;
    private final long[] minLeft;
    private final long[] minRight;
    /** Per relation, the neighbours its index scans can be parameterized by, where there are two or more. */
    private final long[] starParameters;
    private final long starRelations;

    ParameterSources(JoinGraph graph) {
        int n = graph.size();
        all = n == 64 ? -1L : (1L << n) - 1;
        List<OrderRestriction> restrictions = graph.restrictions();
        minLeft = new long[restrictions.size()];
        minRight = new long[restrictions.size()];
        for (int i = 0; i < restrictions.size(); i++) {
            minLeft[i] = mask(restrictions.get(i).minLeft());
            minRight[i] = mask(restrictions.get(i).minRight());
        }
        starParameters = new long[n];
        long star = 0;
        for (int v = 0; v < n; v++) {
            long parameters = graph.indexScanParameterMask(v);
            if (Long.bitCount(parameters) >= 2) {
                starParameters[v] = parameters;
                star |= 1L << v;
            }
        }
        starRelations = star;
    }

    /**
     * Of {@code outside}, the relations outside the join relation {@code set} that parameterize index scans inside
     * it, those PostgreSQL keeps paths for. Stops as soon as all of them are kept, the common case in a dense graph.
     */
    long kept(long set, long outside) {
        long kept = 0;
        for (int i = 0; i < minLeft.length && kept != outside; i++) {
            if ((minRight[i] & set) != 0 && (minLeft[i] & set) == 0) {
                kept |= outside & all & ~minRight[i];
            }
        }
        for (long bits = set & starRelations; bits != 0 && kept != outside; bits &= bits - 1) {
            long parameters = starParameters[Long.numberOfTrailingZeros(bits)];
            if ((parameters & set) != 0) {
                kept |= parameters & outside;
            }
        }
        return kept;
    }

    private static long mask(int[] vertices) {
        long mask = 0;
        for (int v : vertices) {
            mask |= 1L << v;
        }
        return mask;
    }
}

package io.memogate.estimator.graph;

import java.util.List;

/**
 * Which csg-cmp pairs PostgreSQL builds under a problem's {@link OrderRestriction}s: {@code join_is_legal}
 * (src/backend/optimizer/path/joinrels.c) over bitmasks, and the join relations built so far, since a pair is
 * only tried when both its sides were built ({@code join_search_one_level} combines existing join relations).
 * Pairs must be offered in an order valid for dynamic programming (every pair of a set before any pair using
 * the set), as DPccp's are. At most 64 vertices.
 */
final class JoinLegality {

    private final boolean[] semi;
    private final long[] minLeft;
    private final long[] minRight;
    private final long[] synRight;
    private final LongSet built = new LongSet();

    JoinLegality(List<OrderRestriction> restrictions) {
        int k = restrictions.size();
        semi = new boolean[k];
        minLeft = new long[k];
        minRight = new long[k];
        synRight = new long[k];
        for (int i = 0; i < k; i++) {
            OrderRestriction r = restrictions.get(i);
            semi[i] = r.semi();
            minLeft[i] = mask(r.minLeft());
            minRight[i] = mask(r.minRight());
            synRight[i] = mask(r.synRight());
        }
    }

    /** Whether PostgreSQL builds the pair {@code (a, b)}; if it does, their union counts as built from now on. */
    boolean build(long a, long b) {
        if (!isBuilt(a) || !isBuilt(b) || !legal(a, b)) {
            return false;
        }
        built.add(a | b);
        return true;
    }

    /** The join relations built so far: sets of two or more relations made by a pair this allowed. */
    int builtCount() {
        return built.size;
    }

    private boolean isBuilt(long set) {
        return Long.bitCount(set) == 1 || built.contains(set);
    }

    /**
     * {@code join_is_legal}: a restriction matters when the join overlaps its right side beyond it and neither
     * input has performed it already; then the pair must perform it (one side holding each minimal side), join a
     * semi join's whole right side as a unique inner, or (not for a semi join) have both inputs inside the right
     * side's boundary. Only one restriction may be performed at once, and a violation is excused only by
     * performing another restriction, never by a unique-ified semi join.
     */
    boolean legal(long a, long b) {
        long joined = a | b;
        boolean matched = false;
        boolean uniqueInner = false;
        boolean validInner = true;
        for (int i = 0; i < semi.length; i++) {
            long left = minLeft[i];
            long right = minRight[i];
            if ((right & joined) == 0 || (joined & ~right) == 0 || done(a, i) || done(b, i)) {
                continue;
            }
            if (semi[i] && (inside(synRight[i], a) && synRight[i] != a || inside(synRight[i], b) && synRight[i] != b)) {
                continue; // its right side was made unique and joined below
            }
            if (inside(left, a) && inside(right, b) || inside(left, b) && inside(right, a)) {
                if (matched) {
                    return false;
                }
                matched = true;
            } else if (semi[i] && (synRight[i] == a || synRight[i] == b)) {
                if (matched) {
                    return false;
                }
                matched = true;
                uniqueInner = true;
            } else if (semi[i] || (a & right) == 0 || (b & right) == 0) {
                validInner = false;
            }
        }
        return validInner || matched && !uniqueInner;
    }

    private boolean done(long set, int i) {
        return inside(minLeft[i], set) && inside(minRight[i], set);
    }

    private static boolean inside(long subset, long set) {
        return (subset & ~set) == 0;
    }

    private static long mask(int[] vertices) {
        long mask = 0;
        for (int v : vertices) {
            mask |= 1L << v;
        }
        return mask;
    }

    /** An open-addressing set of non-zero longs: the join relations built, without boxing one per pair. */
    private static final class LongSet {
        private long[] slots = new long[1024];
        private int size;

        boolean contains(long key) {
            int mask = slots.length - 1;
            for (int i = hash(key) & mask; slots[i] != 0; i = (i + 1) & mask) {
                if (slots[i] == key) {
                    return true;
                }
            }
            return false;
        }

        void add(long key) {
            if (2 * (size + 1) > slots.length) {
                long[] old = slots;
                slots = new long[old.length * 2];
                size = 0;
                for (long k : old) {
                    if (k != 0) {
                        insert(k);
                    }
                }
            }
            insert(key);
        }

        private void insert(long key) {
            int mask = slots.length - 1;
            int i = hash(key) & mask;
            while (slots[i] != 0) {
                if (slots[i] == key) {
                    return;
                }
                i = (i + 1) & mask;
            }
            slots[i] = key;
            size++;
        }

        private static int hash(long key) {
            long h = key * 0x9E3779B97F4A7C15L;
            return (int) (h ^ (h >>> 32));
        }
    }
}

package io.memogate.estimator.graph;

import java.util.Arrays;
import java.util.Collection;

/**
 * A join-order restriction of one outer, semi or anti join: PostgreSQL's {@code SpecialJoinInfo}
 * (src/include/nodes/pathnodes.h) over a problem's vertices. The join is performed by a pair whose one side
 * holds {@code minLeft} and whose other holds {@code minRight}; until then no join may mix part of
 * {@code minRight} with anything outside it ({@code join_is_legal}, src/backend/optimizer/path/joinrels.c).
 * A semi join's whole right side ({@code synRight}) may instead be made unique and joined to anything as an
 * inner join. {@code make_outerjoininfo} (src/backend/optimizer/plan/initsplan.c) sets the minimal sides so
 * that the outer-join identities of src/backend/optimizer/README hold; whoever builds the graph does the same.
 * In DPhyp's terms (Moerkotte &amp; Neumann, SIGMOD 2008) it is the hyperedge {@code (minLeft, minRight)}.
 */
public final class OrderRestriction {

    private final boolean semi;
    private final int[] minLeft;
    private final int[] minRight;
    private final int[] synRight;

    /**
     * @param semi a semi join (IN, EXISTS), whose right side may be made unique; an outer or anti join otherwise
     * @param minLeft the relations of the left side the join needs, at least one
     * @param minRight the relations of the right side the join needs, at least one
     * @param synRight the whole right side, holding {@code minRight}
     */
    public OrderRestriction(boolean semi, Collection<Integer> minLeft, Collection<Integer> minRight,
                            Collection<Integer> synRight) {
        this.semi = semi;
        this.minLeft = sorted(minLeft);
        this.minRight = sorted(minRight);
        int[] whole = sorted(synRight);
        this.synRight = whole.length == 0 ? this.minRight : whole;
        if (this.minLeft.length == 0 || this.minRight.length == 0) {
            throw new IllegalArgumentException("a join needs relations on both sides, had " + minLeft + " and "
                    + minRight);
        }
    }

    public boolean semi() {
        return semi;
    }

    public int[] minLeft() {
        return minLeft.clone();
    }

    public int[] minRight() {
        return minRight.clone();
    }

    public int[] synRight() {
        return synRight.clone();
    }

    /** The same restriction over the vertices that {@code position} maps to ({@code -1}: gone); null when a side is gone. */
    OrderRestriction mapped(int[] position) {
        int[] left = map(minLeft, position);
        int[] right = map(minRight, position);
        if (left.length == 0 || right.length == 0) {
            return null;
        }
        return new OrderRestriction(semi, box(left), box(right), box(map(synRight, position)));
    }

    private static int[] map(int[] vertices, int[] position) {
        return Arrays.stream(vertices).map(v -> position[v]).filter(p -> p >= 0).distinct().sorted().toArray();
    }

    private static Collection<Integer> box(int[] vertices) {
        return Arrays.stream(vertices).boxed().toList();
    }

    private static int[] sorted(Collection<Integer> vertices) {
        return vertices.stream().mapToInt(Integer::intValue).distinct().sorted().toArray();
    }

    @Override
    public String toString() {
        return (semi ? "semi " : "outer ") + Arrays.toString(minLeft) + " -> " + Arrays.toString(minRight);
    }
}

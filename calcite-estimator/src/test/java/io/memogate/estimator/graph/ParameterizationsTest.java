package io.memogate.estimator.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;

import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * {@link MemoSize#parameterizations()}: index scans parameterized by a neighbour, counted per pair where PostgreSQL
 * keeps the parameterized join paths ({@link ParameterSources}).
 */
class ParameterizationsTest {

    private final CsgCmpCounter counter = new CsgCmpCounter();

    /**
     * A star whose hub has an index per arm: a join relation holding the hub and k of the n-1 leaves keeps
     * paths parameterized by each of the n-1-k leaves outside it, and k pairs make it (the hub's side with
     * one leaf less, and that leaf), so (n-1)(n-2)2^(n-3) in all. The leaves' own keys add none: a leaf
     * alone is parameterized by the hub, but no pair makes a base relation.
     */
    @Test
    void anIndexedHubIsParameterizedByEveryLeafOutsideEachPair() {
        for (int n = 3; n <= 14; n++) {
            JoinGraph.Builder hub = Shapes.STAR.builder(n);
            JoinGraph.Builder both = Shapes.STAR.builder(n);
            JoinGraph.Builder leaves = Shapes.STAR.builder(n);
            for (int leaf = 1; leaf < n; leaf++) {
                hub.markIndexScan(0, leaf);
                both.markIndexScan(0, leaf).markIndexScan(leaf, 0);
                leaves.markIndexScan(leaf, 0);
            }
            double expected = (n - 1) * (n - 2) * Math.pow(2, n - 3);
            assertThat(counter.count(hub.build()).parameterizations()).as("star of %d", n).isEqualTo(expected);
            assertThat(CsgCmpCounter.enumerate(hub.build(), Long.MAX_VALUE).parameterizations()).isEqualTo(expected);
            assertThat(counter.count(both.build()).parameterizations()).isEqualTo(expected);
            assertThat(counter.count(leaves.build()).parameterizations()).isZero();
        }
        assertThat(counter.count(Shapes.STAR.graph(8)).parameterizations()).as("no index marked").isZero();
    }

    /** A tree past the 64 relations a bitmask holds is counted by formula like any other: a star of 70. */
    @Test
    void aTreePastSixtyFourRelationsIsCountedByFormula() {
        int n = 70;
        JoinGraph.Builder hub = Shapes.STAR.builder(n);
        for (int leaf = 1; leaf < n; leaf++) {
            hub.markIndexScan(0, leaf);
        }
        MemoSize memo = counter.count(hub.build());
        assertThat(memo.exact()).isTrue();
        assertThat(memo.parameterizations()).isCloseTo((n - 1) * (n - 2) * Math.pow(2, n - 3), withinPercentage(1e-9));
    }

    /**
     * A chain whose every relation can be scanned by an index parameterized by either neighbour: a segment
     * [i, j] is parameterized by each neighbour it has outside (two, or one at an end) and made by j - i
     * pairs. Each end of a segment of two or more is indexed for its neighbour inside too, the star-schema case.
     */
    @Test
    void aFullyIndexedChainCountsEachSegmentsOutsideNeighboursPerPair() {
        int n = 7;
        JoinGraph.Builder chain = Shapes.CHAIN.builder(n);
        for (int v = 0; v + 1 < n; v++) {
            chain.markIndexScan(v, v + 1).markIndexScan(v + 1, v);
        }
        double expected = 0;
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                int outside = (i > 0 ? 1 : 0) + (j < n - 1 ? 1 : 0);
                expected += (j - i) * outside;
            }
        }
        assertThat(counter.count(chain.build()).parameterizations()).isEqualTo(expected);
    }

    /**
     * A chain joined key to id, each relation's id indexed for its one parent ({@code t(i).k = t(i+1).id}): a
     * segment's first relation can be scanned by an index parameterized by the relation before it, but with no
     * outer join and no second parameter PostgreSQL keeps no join path that still needs it, so none is counted.
     * Under {@code t0 LEFT JOIN (t1 ... t(n-1))} the right side's sets may keep paths parameterized by what lies
     * outside that side: the segments [1, j] by t0, each made by j - 1 pairs. A segment starting further on is
     * parameterized by a relation of the right side itself, which is no param source.
     */
    @Test
    void aChainKeyedToIdsKeepsParameterizedJoinsOnlyOnAnOuterJoinsNullableSide() {
        int n = 6;
        JoinGraph.Builder inner = Shapes.CHAIN.builder(n);
        JoinGraph.Builder left = Shapes.CHAIN.builder(n);
        for (int v = 0; v + 1 < n; v++) {
            inner.markIndexScan(v + 1, v);
            left.markIndexScan(v + 1, v);
        }
        Set<Integer> nullable = new TreeSet<>();
        for (int v = 1; v < n; v++) {
            nullable.add(v);
        }
        left.restrict(new OrderRestriction(false, Set.of(0), nullable, nullable));
        double expected = 0;
        for (int j = 2; j < n; j++) {
            expected += j - 1;
        }
        assertThat(counter.count(inner.build()).parameterizations()).isZero();
        assertThat(counter.count(left.build()).parameterizations()).isEqualTo(expected)
                .isEqualTo(PostgresJoinSearch.parameterizations(left.build()));
    }

    /**
     * Two components: each pair of a component's search appears once per way of sharing the other
     * component's relations between the sides (3^(k-1), as its extra clauses do); the Cartesian pairs
     * have none, a finished component having nothing outside to be parameterized by.
     */
    @Test
    void disconnectedComponentsCountTheirPairsOncePerWayOfSharingTheOthers() {
        JoinGraph.Builder builder = Shapes.relations(5).addJoin(0, 1).addJoin(1, 2).addJoin(3, 4);
        builder.markIndexScan(1, 0).markIndexScan(1, 2);
        // Alone, 0-1-2 has the pairs ({0},{1}), parameterized by 2, and ({1},{2}), by 0, and two making the
        // whole, with nothing outside: 2 in all.
        assertThat(counter.count(builder.build()).parameterizations()).isEqualTo(3 * 2.0);
    }

    /** The trees' formula agrees with the enumeration, and the enumeration with counting every subset. */
    @Test
    void treesFormulaEnumerationAndBruteForceAgree() {
        Random random = new Random(17);
        for (int trial = 0; trial < 200; trial++) {
            int n = 2 + random.nextInt(11);
            JoinGraph.Builder builder = Shapes.randomTree(random, n, trial % 2 == 1);
            for (int marks = random.nextInt(2 * n); marks > 0; marks--) {
                builder.markIndexScan(random.nextInt(n), random.nextInt(n));
            }
            JoinGraph graph = builder.build();
            double expected = bruteForce(graph);
            assertThat(counter.count(graph).parameterizations()).as("%s", graph).isEqualTo(expected);
            assertThat(CsgCmpCounter.enumerate(graph, Long.MAX_VALUE).parameterizations()).as("%s", graph)
                    .isEqualTo(expected);
        }
    }

    /** A mark between relations no clause links makes no parameterized path. */
    @Test
    void marksBetweenUnlinkedRelationsCountNothing() {
        JoinGraph chain = Shapes.CHAIN.builder(4).markIndexScan(0, 3).markIndexScan(0, 2).build();
        assertThat(counter.count(chain).parameterizations()).isZero();
    }

    /**
     * Over every connected set, its parameterizations times the splits of it into two connected sides. Without
     * order restrictions an outside relation counts only as a star-schema parameter: one of a relation inside
     * that two neighbours or more can parameterize, one of them inside too.
     */
    private static double bruteForce(JoinGraph graph) {
        int n = graph.size();
        double total = 0;
        for (long set = 1; set < (1L << n); set++) {
            if (!connected(graph, set)) {
                continue;
            }
            long parameters = 0;
            for (int v = 0; v < n; v++) {
                long ofV = graph.indexScanParameterMask(v);
                if ((set & (1L << v)) != 0 && Long.bitCount(ofV) >= 2 && (ofV & set) != 0) {
                    parameters |= ofV;
                }
            }
            long lowest = Long.lowestOneBit(set);
            int splits = 0;
            for (long side = (set - 1) & set; side != 0; side = (side - 1) & set) {
                if ((side & lowest) != 0 && connected(graph, side) && connected(graph, set & ~side)) {
                    splits++;
                }
            }
            total += splits * Long.bitCount(parameters & ~set);
        }
        return total;
    }

    private static boolean connected(JoinGraph graph, long set) {
        long reached = Long.lowestOneBit(set);
        long frontier = reached;
        while (frontier != 0) {
            long next = 0;
            for (long bits = frontier; bits != 0; bits &= bits - 1) {
                next |= graph.neighbourMask(Long.numberOfTrailingZeros(bits));
            }
            frontier = next & set & ~reached;
            reached |= frontier;
        }
        return reached == set;
    }
}

package io.memogate.estimator.graph;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link MemoSize#parameterizations()}: index scans parameterized by a neighbour, counted per connected set. */
class ParameterizationsTest {

    private final CsgCmpCounter counter = new CsgCmpCounter();

    /**
     * A star whose hub has an index per arm: every connected set holding the hub but not leaf j keeps paths
     * parameterized by j, (n-1) 2^(n-2) of them, as many as the star's pairs; the leaves' own keys add one
     * each (a leaf alone, parameterized by the hub).
     */
    @Test
    void anIndexedHubIsParameterizedByEveryLeafOutsideEachSet() {
        for (int n = 3; n <= 14; n++) {
            JoinGraph.Builder hub = Shapes.STAR.builder(n);
            JoinGraph.Builder both = Shapes.STAR.builder(n);
            JoinGraph.Builder leaves = Shapes.STAR.builder(n);
            for (int leaf = 1; leaf < n; leaf++) {
                hub.markIndexScan(0, leaf);
                both.markIndexScan(0, leaf).markIndexScan(leaf, 0);
                leaves.markIndexScan(leaf, 0);
            }
            double pairs = Shapes.STAR.pairs(n);
            assertThat(counter.count(hub.build()).parameterizations()).as("star of %d", n).isEqualTo(pairs);
            assertThat(counter.count(both.build()).parameterizations()).isEqualTo(pairs + n - 1);
            assertThat(counter.count(leaves.build()).parameterizations()).isEqualTo(n - 1.0);
        }
        assertThat(counter.count(Shapes.STAR.graph(8)).parameterizations()).as("no index marked").isZero();
    }

    /** The trees' formula agrees with the enumeration, and the enumeration with counting every subset. */
    @Test
    void treesFormulaEnumerationAndBruteForceAgree() {
        Random random = new Random(17);
        for (int trial = 0; trial < 200; trial++) {
            int n = 2 + random.nextInt(11);
            JoinGraph.Builder builder = Shapes.relations(n);
            boolean tree = trial % 2 == 0;
            for (int v = 1; v < n; v++) {
                builder.addJoin(random.nextInt(v), v);
            }
            if (!tree) {
                for (int extra = random.nextInt(n); extra > 0; extra--) {
                    int a = random.nextInt(n);
                    int b = random.nextInt(n);
                    if (a != b) {
                        builder.addJoin(a, b);
                    }
                }
            }
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

    private static double bruteForce(JoinGraph graph) {
        int n = graph.size();
        double total = 0;
        for (long set = 1; set < (1L << n); set++) {
            if (!connected(graph, set)) {
                continue;
            }
            long parameters = 0;
            for (int v = 0; v < n; v++) {
                if ((set & (1L << v)) != 0) {
                    parameters |= graph.indexScanParameterMask(v);
                }
            }
            total += Long.bitCount(parameters & ~set);
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

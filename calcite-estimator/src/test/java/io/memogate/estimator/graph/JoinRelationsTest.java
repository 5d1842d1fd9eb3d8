package io.memogate.estimator.graph;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link MemoSize#joinRelations()}: the join relations the pairs make, each created by the first pair that makes it,
 * counted by the trees' formula and by the enumeration, against PostgreSQL's own level search.
 */
class JoinRelationsTest {

    private final CsgCmpCounter counter = new CsgCmpCounter();

    /** Chains make their runs, stars every set holding the hub, cliques every set of two or more. */
    @Test
    void theRegularShapesMakeTheirConnectedSets() {
        for (int n = 2; n <= 12; n++) {
            assertThat(counter.count(Shapes.CHAIN.graph(n)).joinRelations()).as("chain of %d", n)
                    .isEqualTo(n * (n - 1) / 2.0);
            assertThat(counter.count(Shapes.STAR.graph(n)).joinRelations()).as("star of %d", n)
                    .isEqualTo(Math.pow(2, n - 1) - 1);
            assertThat(counter.count(Shapes.CLIQUE.graph(n)).joinRelations()).as("clique of %d", n)
                    .isEqualTo(Math.pow(2, n) - n - 1);
            if (n >= 3) {
                // A cycle's runs, each of n starting points and 2..n-1 long, and the whole.
                assertThat(counter.count(Shapes.CYCLE.graph(n)).joinRelations()).as("cycle of %d", n)
                        .isEqualTo(n * (n - 2) + 1.0);
            }
        }
    }

    /** A cycle makes the same sets many ways: more pairs per relation than the chain it closes. */
    @Test
    void closingACycleAddsMorePairsThanRelations() {
        MemoSize chain = counter.count(Shapes.CHAIN.graph(8));
        MemoSize cycle = counter.count(Shapes.CYCLE.graph(8));
        assertThat(cycle.pairs() - chain.pairs()).isGreaterThan(2 * (cycle.joinRelations() - chain.joinRelations()));
    }

    /** The trees' formula, the enumeration and PostgreSQL's level search agree, with and without cycles. */
    @Test
    void formulaEnumerationAndLevelSearchAgree() {
        Random random = new Random(23);
        for (int trial = 0; trial < 200; trial++) {
            int n = 2 + random.nextInt(10);
            JoinGraph graph = Shapes.randomTree(random, n, trial % 2 == 1).build();
            double expected = PostgresJoinSearch.joinRelations(graph);
            assertThat(counter.count(graph).joinRelations()).as("%s", graph).isEqualTo(expected);
            assertThat(CsgCmpCounter.enumerate(graph, Long.MAX_VALUE).joinRelations()).as("%s", graph)
                    .isEqualTo(expected);
        }
    }

    /**
     * A graph of several components joins each component's sets to the others' by Cartesian products. The relations
     * counted are those a linked pair makes, counted from the components: never fewer than the level search's, and
     * at most 1.7x as many, cycles and lone relations included; none where no clause links anything.
     */
    @Test
    void disconnectedGraphsCountTheRelationsLinkedPairsMake() {
        Random random = new Random(5);
        for (int trial = 0; trial < 200; trial++) {
            int components = 2 + random.nextInt(4);
            JoinGraph.Builder builder = JoinGraph.builder();
            int n = 0;
            for (int c = 0; c < components; c++) {
                int first = n;
                for (int size = 1 + random.nextInt(4); size > 0; size--) {
                    builder.addRelation("t" + n++);
                }
                for (int v = first + 1; v < n; v++) {
                    builder.addJoin(first + random.nextInt(v - first), v);
                }
                if (n - first >= 3 && random.nextBoolean()) {
                    builder.addJoin(first, n - 1);
                }
            }
            JoinGraph graph = builder.build();
            double linked = PostgresJoinSearch.linkedJoinRelations(graph);
            assertThat(counter.count(graph).joinRelations()).as("%s", graph)
                    .isBetween(linked, 1.75 * linked);
        }
        JoinGraph loneRelations = Shapes.relations(4).build();
        assertThat(counter.count(loneRelations).joinRelations()).isZero();
        assertThat(counter.count(loneRelations).pairs()).isPositive();
    }

    /**
     * Past the step budget the relations are extrapolated at the enumerated sets' relations per pair. A clique's
     * smaller balls make more relations per pair than the whole, so the count errs high, never above the pairs.
     */
    @Test
    void anExtrapolatedCountKeepsItsRelationsPerPair() {
        MemoSize exact = counter.count(Shapes.CLIQUE.graph(14));
        MemoSize capped = new CsgCmpCounter(50_000).count(Shapes.CLIQUE.graph(14));
        assertThat(capped.capped()).isTrue();
        assertThat(capped.joinRelations()).isGreaterThanOrEqualTo(exact.joinRelations())
                .isLessThanOrEqualTo(capped.pairs());
    }
}

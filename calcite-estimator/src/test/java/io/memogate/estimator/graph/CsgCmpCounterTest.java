package io.memogate.estimator.graph;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.PlannerMemoryMeasurements;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

class CsgCmpCounterTest {

    private final CsgCmpCounter counter = new CsgCmpCounter();

    @ParameterizedTest
    @EnumSource(Shapes.class)
    void dpccpEnumerationMatchesTheClosedFormsFrom2To14Relations(Shapes shape) {
        for (int n = 2; n <= 14; n++) {
            JoinGraph graph = shape.graph(n);
            MemoSize enumerated = CsgCmpCounter.enumerate(graph, Long.MAX_VALUE);
            assertThat(enumerated.pairs()).as("%s of %d", shape, n).isEqualTo(shape.pairs(n));
            assertThat(enumerated.exact()).isTrue();
            // Trees are counted by formula. A 14-clique takes 2.4 million steps, over the default
            // budget: it is capped at its closed form, the most any graph of 14 relations can have.
            MemoSize counted = counter.count(graph);
            boolean tree = shape == Shapes.CHAIN || shape == Shapes.STAR;
            assertThat(counted.pairs()).as("%s of %d", shape, n).isEqualTo(shape.pairs(n));
            assertThat(counted.exact()).isEqualTo(tree || enumerated.steps() <= CsgCmpCounter.DEFAULT_STEP_BUDGET);
        }
    }

    /** The pairs whose join relation holds given vertices: all pairs less those of the graph without them. */
    @Test
    void linkedPairsHoldingAVertexAreThoseNotInTheGraphWithoutIt() {
        JoinGraph chain = Shapes.CHAIN.graph(4);
        MemoSize memo = counter.count(chain);
        assertThat(counter.linkedPairsHolding(chain, memo, new int[] {0})).as("10 less chain 1-2-3's 4").isEqualTo(6);
        assertThat(counter.linkedPairsHolding(chain, memo, new int[] {0, 3})).as("10 less pair 1-2").isEqualTo(9);
        assertThat(counter.linkedPairsHolding(chain, memo, new int[0])).isZero();
        for (int n = 3; n <= 12; n++) {
            JoinGraph star = Shapes.STAR.graph(n);
            MemoSize stars = counter.count(star);
            assertThat(counter.linkedPairsHolding(star, stars, new int[] {0})).as("every pair holds the hub")
                    .isEqualTo(Shapes.STAR.pairs(n));
            assertThat(counter.linkedPairsHolding(star, stars, new int[] {n - 1}))
                    .isEqualTo(Shapes.STAR.pairs(n) - Shapes.STAR.pairs(n - 1));
        }
        JoinGraph clique = Shapes.CLIQUE.graph(6);
        assertThat(counter.linkedPairsHolding(clique, counter.count(clique), new int[] {2}))
                .isEqualTo(Shapes.CLIQUE.pairs(6) - Shapes.CLIQUE.pairs(5));
    }

    @Test
    void aTriangleWithATailHas15Pairs() {
        // a-b-c a triangle, d hangs off c. Unions of 2: ab bc ca cd (4). Unions of 3: abc splits 3 ways,
        // acd into a|cd and d|ac, bcd into b|cd and d|bc (7). All four: d|abc a|bcd b|acd ab|cd (4).
        JoinGraph graph = Shapes.edges(4, List.of(e(0, 1), e(1, 2), e(2, 0), e(2, 3)));
        assertThat(counter.count(graph)).extracting(MemoSize::pairs, MemoSize::exact).containsExactly(15.0, true);
        assertThat(PostgresJoinSearch.makeJoinRelCalls(graph)).isEqualTo(15);
    }

    @Test
    void treesAreCountedByFormulaAsDpccpEnumeratesThem() {
        Random random = new Random(7);
        for (int trial = 0; trial < 200; trial++) {
            int n = 2 + random.nextInt(14);
            List<int[]> edges = new ArrayList<>();
            for (int v = 1; v < n; v++) {
                edges.add(e(random.nextInt(v), v));
            }
            JoinGraph tree = Shapes.edges(n, edges);
            assertThat(TreeCount.pairs(tree)).as("%s", tree)
                    .isEqualTo(CsgCmpCounter.enumerate(tree, Long.MAX_VALUE).pairs());
        }
    }

    @Test
    void theDataFilesCcpPairsAreTheClosedFormsAndTheCounts() {
        List<PlannerMemoryMeasurements.Row> rows = PlannerMemoryMeasurements.rows();
        assertThat(rows).hasSize(23);
        for (PlannerMemoryMeasurements.Row row : rows) {
            Shapes shape = Shapes.named(row.shape());
            int n = row.n();
            double ccpPairs = row.ccpPairs();
            assertThat(shape.pairs(n)).as("%s of %d", shape, n).isEqualTo(ccpPairs);
            assertThat(counter.count(shape.graph(n)).pairs()).as("%s of %d", shape, n).isEqualTo(ccpPairs);
        }
    }

    /** PostgreSQL's own join search, transcribed, agrees with the count on connected and disconnected graphs. */
    @ParameterizedTest
    @MethodSource("randomGraphs")
    void countEqualsPostgresMakeJoinRelCallsForInnerJoins(JoinGraph graph) {
        MemoSize memo = counter.count(graph);
        assertThat(memo.exact()).isTrue();
        assertThat(memo.pairs()).as("%s", graph).isEqualTo((double) PostgresJoinSearch.makeJoinRelCalls(graph));
    }

    static Stream<Arguments> randomGraphs() {
        Random random = new Random(42);
        List<Arguments> graphs = new ArrayList<>();
        for (int trial = 0; trial < 120; trial++) {
            int n = 2 + random.nextInt(8);
            double density = random.nextDouble() * 0.7;
            List<int[]> edges = new ArrayList<>();
            for (int a = 0; a < n; a++) {
                for (int b = a + 1; b < n; b++) {
                    if (random.nextDouble() < density) {
                        edges.add(e(a, b));
                    }
                }
            }
            graphs.add(Arguments.of(Shapes.edges(n, edges)));
        }
        return graphs.stream();
    }

    @Test
    void aChainOfThreeBesideAPairNeedsCartesianProductsOnTop() {
        // a0-a1-a2 and b0-b1: 4 + 1 pairs inside; across them {b0 b1} x each a, {a0 a1 a2} x each b,
        // and each half-built side grown along its own clauses: 3^1 * 5 + (2^1 - 1) * 5 = 20.
        JoinGraph graph = Shapes.edges(5, List.of(e(0, 1), e(1, 2), e(3, 4)));
        assertThat(counter.count(graph).pairs()).isEqualTo(20.0);
        assertThat(PostgresJoinSearch.makeJoinRelCalls(graph)).isEqualTo(20);
    }

    @Test
    void relationsWithoutAnyClauseAreJoinedInEveryOrder() {
        JoinGraph graph = Shapes.relations(6).build();
        assertThat(counter.count(graph).pairs()).isEqualTo(6 * (Math.pow(2, 5) - 1));
        assertThat(counter.count(Shapes.relations(100).build()).pairs()).isEqualTo(100 * (Math.pow(2, 99) - 1));
    }

    @Test
    void aThirtyRelationCliqueIsCappedAtItsClosedForm() {
        MemoSize memo = counter.count(Shapes.CLIQUE.graph(30));
        assertThat(memo.capped()).isTrue();
        assertThat(memo.pairs()).isGreaterThanOrEqualTo(Shapes.CLIQUE.pairs(30));
        assertThat(memo.steps()).isLessThanOrEqualTo(CsgCmpCounter.DEFAULT_STEP_BUDGET + 1);
    }

    @Test
    void aSixtyRelationCliqueStaysWithinTheBudget() {
        MemoSize memo = counter.count(Shapes.CLIQUE.graph(60));
        assertThat(memo.capped()).isTrue();
        assertThat(memo.pairs()).isGreaterThanOrEqualTo(Shapes.CLIQUE.pairs(60) * (1 - 1e-12));
        assertThat(memo.steps()).isLessThanOrEqualTo(CsgCmpCounter.DEFAULT_STEP_BUDGET + 1);
    }

    @Test
    void aHundredRelationChainIsATreeAndExact() {
        MemoSize memo = counter.count(Shapes.CHAIN.graph(100));
        // A chain's join relations are its runs of two or more: 100 * 99 / 2.
        assertThat(memo).isEqualTo(new MemoSize(Shapes.CHAIN.pairs(100), 0, 0, 0, 0, 4950, true, 100));
    }

    @Test
    void aHundredRelationCycleIsExtrapolatedFromItsFirst64AndNotUnderestimated() {
        MemoSize memo = counter.count(Shapes.CYCLE.graph(100));
        assertThat(memo.capped()).isTrue();
        assertThat(memo.pairs()).isGreaterThanOrEqualTo(Shapes.CYCLE.pairs(100))
                .isLessThan(3 * Shapes.CYCLE.pairs(100));
    }

    /** Small budgets force extrapolation where the exact count is still known: it must not fall short. */
    @ParameterizedTest
    @MethodSource("overBudget")
    void anExtrapolatedCountIsAtLeastTheExactOne(String name, JoinGraph graph, long budget) {
        MemoSize exact = CsgCmpCounter.enumerate(graph, Long.MAX_VALUE);
        MemoSize capped = CsgCmpCounter.enumerate(graph, budget);
        assertThat(capped.capped()).isTrue();
        assertThat(capped.steps()).isLessThanOrEqualTo(budget + 1);
        assertThat(capped.pairs()).as(name).isGreaterThanOrEqualTo(exact.pairs())
                .isLessThanOrEqualTo(20 * exact.pairs());
    }

    static Stream<Arguments> overBudget() {
        return Stream.of(
                Arguments.of("clique 14", Shapes.CLIQUE.graph(14), 200_000),
                Arguments.of("star 20", Shapes.STAR.graph(20), 200_000),
                Arguments.of("chain 40", Shapes.CHAIN.graph(40), 3_000),
                Arguments.of("cycle 40", Shapes.CYCLE.graph(40), 3_000),
                Arguments.of("star 18 with one leaf-leaf clause", starWithChord(18), 200_000),
                Arguments.of("wheel 16", wheel(16), 200_000),
                Arguments.of("grid 4x5", grid(4, 5), 200_000),
                Arguments.of("snowflake 4x4", snowflake(4, 4), 2_000));
    }

    @Test
    void extrapolationGrowsWithTheNumberOfRelations() {
        CsgCmpCounter small = new CsgCmpCounter(50_000);
        double previous = 0;
        for (int n = 14; n <= 64; n++) {
            double pairs = small.count(Shapes.CLIQUE.graph(n)).pairs();
            assertThat(pairs).as("clique %d", n).isGreaterThan(previous);
            previous = pairs;
        }
        previous = 0;
        for (int n = 65; n <= 130; n += 5) {
            double pairs = small.count(Shapes.CYCLE.graph(n)).pairs();
            assertThat(pairs).as("cycle %d", n).isGreaterThan(previous);
            previous = pairs;
        }
    }

    static JoinGraph starWithChord(int n) {
        JoinGraph.Builder b = Shapes.relations(n);
        Shapes.STAR.join(b, n);
        return b.addJoin(1, 2).build();
    }

    static JoinGraph wheel(int n) {
        JoinGraph.Builder b = Shapes.relations(n);
        Shapes.STAR.join(b, n);
        for (int i = 1; i < n; i++) {
            b.addJoin(i, i == n - 1 ? 1 : i + 1);
        }
        return b.build();
    }

    static JoinGraph grid(int rows, int columns) {
        JoinGraph.Builder b = Shapes.relations(rows * columns);
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < columns; c++) {
                int v = r * columns + c;
                if (c + 1 < columns) {
                    b.addJoin(v, v + 1);
                }
                if (r + 1 < rows) {
                    b.addJoin(v, v + columns);
                }
            }
        }
        return b.build();
    }

    /** A fact table, {@code arms} dimensions each with {@code depth - 1} further levels, plus one cycle closing two arms. */
    static JoinGraph snowflake(int arms, int depth) {
        JoinGraph.Builder b = Shapes.relations(1 + arms * depth);
        for (int a = 0; a < arms; a++) {
            int previous = 0;
            for (int d = 0; d < depth; d++) {
                int v = 1 + a * depth + d;
                b.addJoin(previous, v);
                previous = v;
            }
        }
        return b.addJoin(1, 1 + depth).build();
    }

    static int[] e(int a, int b) {
        return new int[] {a, b};
    }
}

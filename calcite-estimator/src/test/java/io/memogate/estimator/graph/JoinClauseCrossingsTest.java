package io.memogate.estimator.graph;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.LongBinaryOperator;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link MemoSize#extraClauses()}: the join clauses linking the two sides of each pair, beyond the first; and
 * {@link MemoSize#crossingSquares()}, their square beyond one.
 */
class JoinClauseCrossingsTest {

    private final CsgCmpCounter counter = new CsgCmpCounter();

    /**
     * A clique with a clause per edge: a pair's crossings are the edges between its sides, |S1|·|S2|.
     * Summed over ordered pairs that is n(n-1)3^(n-2) (choose a in S1, b in S2, and put each other
     * relation in S1, S2 or neither), so n(n-1)3^(n-2)/2 unordered; checked here against brute force.
     */
    @Test
    void aCliqueWithAClausePerEdgeCrossesTheProductOfItsSidesSizes() {
        for (int n = 2; n <= 10; n++) {
            double closedForm = n * (n - 1) * Math.pow(3, n - 2) / 2;
            assertThat(sideSizeProducts(n)).as("brute force, clique of %d", n).isEqualTo((long) closedForm);
            MemoSize memo = counter.count(Shapes.CLIQUE.graph(n));
            assertThat(memo.pairs() + memo.extraClauses()).as("clique of %d", n).isEqualTo(closedForm);
        }
    }

    /** Sum of |S1|·|S2| over unordered pairs of disjoint non-empty subsets of n relations, by listing them. */
    private static long sideSizeProducts(int n) {
        return sumOverPairs(n, (a, b) -> a * b);
    }

    /** Sum of {@code f(|S1|, |S2|)} over unordered pairs of disjoint non-empty subsets of n relations. */
    private static long sumOverPairs(int n, LongBinaryOperator f) {
        long ordered = 0;
        for (int assignment = 0; assignment < Math.pow(3, n); assignment++) {
            int[] sizes = new int[3];
            for (int v = 0, a = assignment; v < n; v++, a /= 3) {
                sizes[a % 3]++;
            }
            if (sizes[1] > 0 && sizes[2] > 0) {
                ordered += f.applyAsLong(sizes[1], sizes[2]);
            }
        }
        return ordered / 2;
    }

    /** A clique's pair crosses |S1|·|S2| clauses, so adds (|S1|·|S2|)^2 - 1: 900 for 5 tables, 3,678,464 for 10. */
    @Test
    void aCliqueWithAClausePerEdgeSumsTheSquaresOfItsSidesProducts() {
        for (int n = 2; n <= 10; n++) {
            MemoSize memo = counter.count(Shapes.CLIQUE.graph(n));
            assertThat(memo.crossingSquares()).as("clique of %d", n)
                    .isEqualTo((double) sumOverPairs(n, (a, b) -> a * a * b * b - 1));
        }
        assertThat(counter.count(Shapes.CLIQUE.graph(5)).crossingSquares()).isEqualTo(900);
        assertThat(counter.count(Shapes.CLIQUE.graph(10)).crossingSquares()).isEqualTo(3_678_464);
    }

    @Test
    void aCliqueOnOneEquivalenceClassHasOneClausePerPair() {
        for (int n = 2; n <= 12; n++) {
            JoinGraph graph = Shapes.relations(n).addClause(IntStream.range(0, n).boxed().toList()).build();
            MemoSize memo = counter.count(graph);
            assertThat(memo.pairs()).isEqualTo(Shapes.CLIQUE.pairs(n));
            assertThat(memo.extraClauses()).as("clique of %d on one class", n).isZero();
        }
    }

    @Test
    void treesWithAClausePerEdgeHaveNoExtraClausesAtAnySize() {
        assertThat(counter.count(Shapes.CHAIN.graph(100)).extraClauses()).isZero();
        assertThat(counter.count(Shapes.STAR.graph(40)).extraClauses()).isZero();
        Random random = new Random(11);
        for (int trial = 0; trial < 100; trial++) {
            JoinGraph tree = randomTree(random, 2 + random.nextInt(14), 0);
            assertThat(TreeCount.extraClauses(tree)).as("%s", tree).isZero();
        }
    }

    /** A join on a two-column key: the pairs cut at that edge cross two clauses. */
    @Test
    void treesWithSeveralClausesOnAnEdgeAgreeWithTheEnumeration() {
        // t0 =2= t1 - t2: the pairs cut at t0-t1 are t0|t1 and t0|t1t2.
        JoinGraph chain = Shapes.relations(3).addJoin(0, 1).addJoin(0, 1).addJoin(1, 2).build();
        assertThat(counter.count(chain)).extracting(MemoSize::pairs, MemoSize::extraClauses,
                MemoSize::crossingSquares, MemoSize::exact).containsExactly(4.0, 2.0, 6.0, true);
        Random random = new Random(5);
        for (int trial = 0; trial < 100; trial++) {
            JoinGraph tree = randomTree(random, 2 + random.nextInt(14), 1 + random.nextInt(4));
            assertThat(counter.count(tree).extraClauses()).as("%s", tree)
                    .isEqualTo(CsgCmpCounter.enumerate(tree, Long.MAX_VALUE).extraClauses());
            assertThat(counter.count(tree).crossingSquares()).as("%s", tree)
                    .isEqualTo(CsgCmpCounter.enumerate(tree, Long.MAX_VALUE).crossingSquares());
        }
    }

    /** A cycle's pair crosses twice exactly when its sides are two arcs covering the cycle: n(n-1)/2 cuts. */
    @Test
    void aCycleCrossesTwiceWhereTwoArcsMakeTheWholeCycle() {
        for (int n = 3; n <= 14; n++) {
            MemoSize memo = counter.count(Shapes.CYCLE.graph(n));
            assertThat(memo.extraClauses()).as("cycle of %d", n).isEqualTo(n * (n - 1) / 2.0);
            assertThat(memo.crossingSquares()).as("cycle of %d", n).isEqualTo(3 * n * (n - 1) / 2.0);
        }
    }

    /** PostgreSQL's own join search, transcribed, agrees on connected and disconnected graphs. */
    @ParameterizedTest
    @MethodSource("randomClauses")
    void extraClausesEqualThoseOfPostgresJoinSearch(JoinGraph graph) {
        MemoSize memo = counter.count(graph);
        assertThat(memo.exact()).isTrue();
        assertThat(memo.extraClauses()).as("%s", graph).isEqualTo((double) PostgresJoinSearch.extraClauses(graph));
        assertThat(memo.crossingSquares()).as("%s", graph)
                .isEqualTo((double) PostgresJoinSearch.crossingSquares(graph));
    }

    /** The pairs no clause links are those PostgreSQL joins without one, on connected and disconnected graphs. */
    @ParameterizedTest
    @MethodSource("randomClauses")
    void cartesianPairsEqualThoseOfPostgresJoinSearch(JoinGraph graph) {
        assertThat(counter.count(graph).cartesianPairs()).as("%s", graph)
                .isEqualTo((double) PostgresJoinSearch.cartesianPairs(graph));
    }

    /** {@code a.x < b.y}: a pair to build, but no merge join to try, so no extra clause. */
    @Test
    void joinFiltersMakePairsButNoExtraClauses() {
        JoinGraph equalities = Shapes.relations(3).addJoin(0, 1).addJoin(0, 1).addJoin(1, 2).build();
        JoinGraph filtered = Shapes.relations(3).addJoin(0, 1).addJoinFilter(List.of(0, 1)).addJoin(1, 2).build();
        JoinGraph onlyFilters = Shapes.relations(3).addJoinFilter(List.of(0, 1, 2)).build();
        assertThat(counter.count(equalities)).extracting(MemoSize::pairs, MemoSize::extraClauses)
                .containsExactly(4.0, 2.0);
        assertThat(counter.count(filtered)).extracting(MemoSize::pairs, MemoSize::extraClauses)
                .containsExactly(4.0, 0.0);
        assertThat(counter.count(onlyFilters)).extracting(MemoSize::pairs, MemoSize::extraClauses,
                MemoSize::cartesianPairs).containsExactly(6.0, 0.0, 0.0);
    }

    /** Eight cross-joined sub-selects (TPC-DS q88): every pair Cartesian, n (2^(n-1) - 1) of them. */
    @Test
    void relationsWithoutClausesMakeOnlyCartesianPairs() {
        MemoSize memo = counter.count(Shapes.relations(8).build());
        assertThat(memo.pairs()).isEqualTo(8 * 127.0);
        assertThat(memo.cartesianPairs()).isEqualTo(memo.pairs());
        assertThat(counter.count(Shapes.CHAIN.graph(6)).cartesianPairs()).isZero();
    }

    /** Random graphs of 2-9 relations with two-relation clauses (some repeated), wider ones and join filters. */
    static Stream<Arguments> randomClauses() {
        Random random = new Random(99);
        List<Arguments> graphs = new ArrayList<>();
        for (int trial = 0; trial < 150; trial++) {
            int n = 2 + random.nextInt(8);
            JoinGraph.Builder builder = Shapes.relations(n);
            int clauses = random.nextInt(2 * n);
            for (int c = 0; c < clauses; c++) {
                int width = random.nextInt(10) < 8 ? 2 : 3 + random.nextInt(Math.max(1, n - 2));
                List<Integer> relations = random.ints(width, 0, n).boxed().toList();
                if (random.nextInt(5) == 0) {
                    builder.addJoinFilter(relations);
                } else {
                    builder.addClause(relations);
                }
            }
            graphs.add(Arguments.of(builder.build()));
        }
        return graphs.stream();
    }

    @Test
    void aCappedCountScalesItsExtraClausesByTheEnumeratedPartsRatio() {
        MemoSize exact = CsgCmpCounter.enumerate(Shapes.CLIQUE.graph(14), Long.MAX_VALUE);
        MemoSize capped = CsgCmpCounter.enumerate(Shapes.CLIQUE.graph(14), 200_000);
        assertThat(capped.capped()).isTrue();
        // The part enumerated has fewer crossings per pair than the whole clique: short, but not by 2x.
        double exactRatio = exact.extraClauses() / exact.pairs();
        assertThat(capped.extraClauses() / capped.pairs()).isLessThanOrEqualTo(exactRatio)
                .isGreaterThan(exactRatio / 2);
        // A cycle past 64 relations: its first 64 are a chain, one clause per pair, so none are
        // extrapolated; the truth, 100·99/2 = 4,950, is 1% of its pairs.
        MemoSize cycle = counter.count(Shapes.CYCLE.graph(100));
        assertThat(cycle.capped()).isTrue();
        assertThat(cycle.extraClauses()).isZero();
    }

    @Test
    void aSixtyRelationCliqueWithAClausePerEdgeStaysWithinTheBudget() {
        MemoSize memo = counter.count(Shapes.CLIQUE.graph(60));
        assertThat(memo.steps()).isLessThanOrEqualTo(CsgCmpCounter.DEFAULT_STEP_BUDGET + 1);
        assertThat(memo.extraClauses()).isGreaterThan(memo.pairs());
    }

    @Test
    void cartesianPairsCrossNothing() {
        // Two relations without a clause, and two joined on a two-column key: only that pair's
        // second clause is extra, once per way of placing the others (3^(k-1) = 9 for 3 components).
        JoinGraph graph = Shapes.relations(4).addJoin(0, 1).addJoin(0, 1).build();
        assertThat(counter.count(graph).extraClauses()).isEqualTo(9.0);
        assertThat(PostgresJoinSearch.extraClauses(graph)).isEqualTo(9);
        assertThat(counter.count(Shapes.relations(700).build()).extraClauses()).isZero();
    }

    /** A random tree of n relations, each edge with 1 + up to {@code extra} clauses. */
    private static JoinGraph randomTree(Random random, int n, int extra) {
        JoinGraph.Builder builder = Shapes.relations(n);
        for (int v = 1; v < n; v++) {
            int parent = random.nextInt(v);
            for (int c = 0, k = 1 + (extra == 0 ? 0 : random.nextInt(extra + 1)); c < k; c++) {
                builder.addJoin(parent, v);
            }
        }
        return builder.build();
    }
}

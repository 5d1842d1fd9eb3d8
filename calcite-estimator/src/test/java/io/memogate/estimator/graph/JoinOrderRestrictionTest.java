package io.memogate.estimator.graph;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Outer, semi and anti joins counted as PostgreSQL builds them: the pairs of a free reordering that
 * {@code join_is_legal} allows and whose sides were built, against PostgreSQL's own level-by-level search.
 */
class JoinOrderRestrictionTest {

    private final CsgCmpCounter counter = new CsgCmpCounter();

    /** {@code a LEFT JOIN (b JOIN c ON b.x = c.x) ON a.y = b.y}: b-c is built, but not a-b nor a-c alone. */
    @Test
    void aLeftJoinedInnerJoinIsBuiltBeforeItsLeftSideJoinsIt() {
        JoinGraph graph = builder(3, new int[][] {{0, 1}, {1, 2}})
                .restrict(new OrderRestriction(false, Set.of(0), Set.of(1, 2), Set.of(1, 2))).build();
        // Free: a-b, b-c, a|bc, ab|c. Restricted: b-c, then a|bc.
        assertThat(counter.count(graph).pairs()).isEqualTo(2);
        assertThat(PostgresJoinSearch.makeJoinRelCalls(graph)).isEqualTo(2);
    }

    /**
     * {@code a JOIN b ... WHERE EXISTS (SELECT FROM c WHERE c.x = a.x)}: c alone may also be made unique and
     * joined to b, which the semi join's condition does not link: only a-c and (ab, c), (a, bc)... as edges allow.
     */
    @Test
    void aSemiJoinsRightSideMadeUniqueJoinsAnything() {
        // a-b, a-c; semi a -> c. Free: a-b, a-c, ab|c, ac|b = 4. All legal: a-c performs it, ab|c performs it,
        // ac|b is b joined to a relation that already holds the semi join.
        JoinGraph star = builder(3, new int[][] {{0, 1}, {0, 2}})
                .restrict(new OrderRestriction(true, Set.of(0), Set.of(2), Set.of(2))).build();
        assertThat(counter.count(star).pairs()).isEqualTo(4);
        // An anti join on the same shape may not be reordered either way it is not performed: also 4.
        JoinGraph anti = builder(3, new int[][] {{0, 1}, {0, 2}})
                .restrict(new OrderRestriction(false, Set.of(0), Set.of(2), Set.of(2))).build();
        assertThat(counter.count(anti).pairs()).isEqualTo(4);
        // With a two-relation right side c-d, the semi join's c-d may be joined to b once made unique; the
        // anti join's may not.
        int[][] edges = {{0, 1}, {0, 2}, {2, 3}, {1, 3}};
        JoinGraph semi = builder(4, edges).restrict(new OrderRestriction(true, Set.of(0), Set.of(2, 3), Set.of(2, 3)))
                .build();
        JoinGraph antiJoin = builder(4, edges)
                .restrict(new OrderRestriction(false, Set.of(0), Set.of(2, 3), Set.of(2, 3))).build();
        assertThat(counter.count(semi).pairs()).isEqualTo(PostgresJoinSearch.makeJoinRelCalls(semi))
                .isGreaterThan(counter.count(antiJoin).pairs());
        assertThat(counter.count(antiJoin).pairs()).isEqualTo(PostgresJoinSearch.makeJoinRelCalls(antiJoin));
    }

    /**
     * DPccp's order builds every side before a pair uses it, so it counts what the level search counts, on
     * random trees with an extra edge and one outer or semi join, whose right side is the relations from some
     * point on, joined among themselves, and whose left side holds its parent; with index scans marked at random
     * on the edges, the parameterizations kept too.
     */
    @Test
    void restrictedCountsMatchPostgresLevelSearchOnRandomGraphs() {
        Random random = new Random(11);
        Random indexes = new Random(13);
        for (int trial = 0; trial < 400; trial++) {
            int n = 3 + random.nextInt(9);
            int[] splits = {1 + random.nextInt(n - 1)};
            int[] parent = new int[n];
            List<int[]> edges = new ArrayList<>();
            for (int v = 1; v < n; v++) {
                int below = 0;
                for (int split : splits) {
                    if (split < v) {
                        below = split;
                    }
                }
                int vertex = v;
                boolean isSplit = java.util.Arrays.stream(splits).anyMatch(split -> split == vertex);
                parent[v] = isSplit ? random.nextInt(v) : below + random.nextInt(v - below);
                edges.add(new int[] {parent[v], v});
            }
            if (random.nextBoolean()) {
                int a = random.nextInt(n);
                int b = random.nextInt(n);
                if (a != b) {
                    edges.add(new int[] {a, b});
                }
            }
            JoinGraph.Builder builder = builder(n, edges.toArray(int[][]::new));
            for (int split : splits) {
                Set<Integer> whole = new java.util.TreeSet<>();
                for (int v = split; v < n; v++) {
                    whole.add(v);
                }
                // A semi join needs its whole right side, as does an outer join with another nested in it.
                boolean semi = random.nextBoolean();
                boolean innermost = split == splits[splits.length - 1];
                builder.restrict(new OrderRestriction(semi, Set.of(parent[split]),
                        !semi && innermost && random.nextBoolean() ? Set.of(split) : whole, whole));
            }
            for (int marks = indexes.nextInt(2 * n); marks > 0; marks--) {
                int[] edge = edges.get(indexes.nextInt(edges.size()));
                boolean forward = indexes.nextBoolean();
                builder.markIndexScan(edge[forward ? 0 : 1], edge[forward ? 1 : 0]);
            }
            JoinGraph graph = builder.build();
            assertThat(counter.count(graph).parameterizations()).as("%s %s", graph, graph.restrictions())
                    .isEqualTo(PostgresJoinSearch.parameterizations(graph));
            assertThat(counter.count(graph).pairs()).as("%s %s", graph, graph.restrictions())
                    .isEqualTo(PostgresJoinSearch.makeJoinRelCalls(graph))
                    .isLessThanOrEqualTo(counter.count(free(graph)).pairs());
            assertThat(counter.count(graph).joinRelations()).as("%s %s", graph, graph.restrictions())
                    .isEqualTo(PostgresJoinSearch.joinRelations(graph))
                    .isLessThanOrEqualTo(counter.count(free(graph)).joinRelations());
        }
    }

    private static JoinGraph free(JoinGraph graph) {
        JoinGraph.Builder builder = JoinGraph.builder();
        graph.names().forEach(builder::addRelation);
        for (int v = 0; v < graph.size(); v++) {
            for (int w : graph.neighbours(v)) {
                if (w > v) {
                    builder.addJoin(v, w);
                }
            }
        }
        return builder.build();
    }

    private static JoinGraph.Builder builder(int n, int[][] edges) {
        JoinGraph.Builder builder = JoinGraph.builder();
        for (int v = 0; v < n; v++) {
            builder.addRelation("r" + v);
        }
        for (int[] e : edges) {
            builder.addJoin(e[0], e[1]);
        }
        return builder;
    }
}

package io.memogate.estimator.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class JoinGraphTest {

    @Test
    void aClauseOverThreeRelationsLinksEveryPairOfThem() {
        JoinGraph.Builder builder = Shapes.relations(4);
        builder.addClause(List.of(0, 1, 2));
        JoinGraph graph = builder.build();
        assertThat(graph.edgeCount()).isEqualTo(3);
        assertThat(graph.adjacent(0, 2)).isTrue();
        assertThat(graph.neighbours(3)).isEmpty();
    }

    @Test
    void filtersAndRepeatedClausesAddNoEdges() {
        JoinGraph graph = Shapes.relations(2).addJoin(0, 0).addJoin(0, 1).addJoin(1, 0)
                .addClause(List.of(1)).build();
        assertThat(graph.edgeCount()).isEqualTo(1);
        assertThat(graph.degree(0)).isEqualTo(1);
        // ... but a repeated clause is still a second clause between the two relations
        assertThat(graph.clauseCount()).isEqualTo(2);
    }

    @Test
    void anInducedSubgraphKeepsWhatItHoldsOfEachClause() {
        JoinGraph graph = Shapes.relations(4).addClause(List.of(0, 1, 3)).addJoin(1, 2).addJoin(2, 3).build()
                .induced(new int[] {3, 1, 2});
        assertThat(graph.clauseCount()).isEqualTo(3);
        assertThat(graph.clause(0)).containsExactly(0, 1);
        assertThat(graph.clause(1)).containsExactly(1, 2);
        assertThat(graph.clause(2)).containsExactly(0, 2);
        assertThat(Shapes.CHAIN.graph(4).induced(new int[] {0, 2}).clauseCount()).isZero();
    }

    @Test
    void componentsAreListedBySmallestRelation() {
        JoinGraph graph = Shapes.edges(6, List.of(new int[] {4, 1}, new int[] {2, 5}, new int[] {5, 3}));
        assertThat(graph.components()).containsExactly(new int[] {0}, new int[] {1, 4}, new int[] {2, 3, 5});
        assertThat(graph.isConnected()).isFalse();
    }

    @Test
    void anInducedSubgraphIsNumberedAsAsked() {
        JoinGraph graph = Shapes.CHAIN.graph(4).induced(new int[] {3, 2, 0});
        assertThat(graph.names()).containsExactly("t3", "t2", "t0");
        assertThat(graph.edgeCount()).isEqualTo(1);
        assertThat(graph.adjacent(0, 1)).isTrue();
    }

    @Test
    void graphsAbove64RelationsAreHeldButHaveNoBitmasks() {
        JoinGraph graph = Shapes.CYCLE.graph(130);
        assertThat(graph.adjacent(129, 0)).isTrue();
        assertThat(graph.neighbours(64)).containsExactly(63, 65);
        assertThat(graph.fitsMask()).isFalse();
        assertThatThrownBy(() -> graph.neighbourMask(0)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("130 relations");
        assertThat(Shapes.CLIQUE.graph(64).neighbourMask(0)).isEqualTo(-2L);
    }

    @Test
    void anUnknownRelationIsRefused() {
        assertThatThrownBy(() -> Shapes.relations(2).addJoin(0, 2)).isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessage("no relation 2 among 2");
    }
}

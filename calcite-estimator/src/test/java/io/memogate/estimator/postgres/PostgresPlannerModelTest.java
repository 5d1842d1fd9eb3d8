package io.memogate.estimator.postgres;

import static io.memogate.estimator.planner.Blocks.block;
import static io.memogate.estimator.planner.Blocks.chain;
import static io.memogate.estimator.planner.Blocks.clause;
import static io.memogate.estimator.planner.Blocks.eq;
import static io.memogate.estimator.planner.Blocks.from;
import static io.memogate.estimator.planner.Blocks.join;
import static io.memogate.estimator.planner.Blocks.leftDeep;
import static io.memogate.estimator.planner.Blocks.link;
import static io.memogate.estimator.planner.Blocks.planned;
import static io.memogate.estimator.planner.Blocks.pulledUp;
import static io.memogate.estimator.planner.Blocks.rel;
import static io.memogate.estimator.planner.Blocks.rels;
import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.graph.JoinGraph;
import io.memogate.estimator.planner.JoinSearch;
import io.memogate.estimator.planner.JoinType;
import io.memogate.estimator.planner.PlannerWork;
import io.memogate.estimator.planner.Predicate;
import io.memogate.estimator.planner.QueryBlock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PostgresPlannerModelTest {

    private static final PlannerSettings NO_GEQO = PlannerSettings.DEFAULTS.with("geqo", "off");

    private static PlannerWork plan(PlannerSettings settings, QueryBlock block) {
        return new PostgresPlannerModel(settings).plan(block);
    }

    /** Items per search, in the order PostgreSQL solves them. */
    private static List<Integer> sizes(PlannerWork work) {
        return work.searches().stream().map(JoinSearch::relations).toList();
    }

    @Test
    void aFlatFromListIsOneProblemWhateverFromCollapseLimit() {
        // Every item of a comma list is one relation, and one-item members always merge.
        QueryBlock twelve = block(from(rels("t", 12)), chain("t", 12));
        assertThat(sizes(plan(NO_GEQO.with("from_collapse_limit", "8"), twelve))).containsExactly(12);
        assertThat(sizes(plan(NO_GEQO.with("from_collapse_limit", "1"), twelve))).containsExactly(12);
    }

    @Test
    void pulledUpSubqueriesMergeOnlyWithinFromCollapseLimit() {
        // FROM (a0..a3) a, (b0..b3) b, (c0..c3) c: twelve relations in three pulled-up sub-selects.
        List<Predicate> outer = List.of(eq("a3.x", "b0.x"), eq("b3.x", "c0.x"));
        QueryBlock statement = block(from(
                pulledUp("a", block(from(rels("a", 4)), chain("a", 4))),
                pulledUp("b", block(from(rels("b", 4)), chain("b", 4))),
                pulledUp("c", block(from(rels("c", 4)), chain("c", 4)))), outer);

        // 0 + 4 + 2 remaining <= 8 merges a's four; 4 + 4 + 1 > 8 keeps b apart, 5 + 4 > 8 keeps c apart.
        PlannerWork limited = plan(NO_GEQO.with("from_collapse_limit", "8"), statement);
        assertThat(sizes(limited)).containsExactly(4, 4, 6);
        assertThat(limited.searches().get(2).graph().names())
                .containsExactly("a0", "a1", "a2", "a3", "(b0 b1 b2 b3)", "(c0 c1 c2 c3)");
        // the sub-select's own predicates link its relations; the outer ones link the sub-problems
        assertThat(limited.largest().orElseThrow().joinPairs()).isEqualTo(35); // a chain of 6: (216-6)/6

        PlannerWork merged = plan(NO_GEQO.with("from_collapse_limit", "20"), statement);
        assertThat(sizes(merged)).containsExactly(12);
        assertThat(merged.totalJoinPairs()).isEqualTo((12 * 12 * 12 - 12) / 6.0);
        assertThat(merged.totalJoinPairs()).isGreaterThan(limited.totalJoinPairs());
    }

    @Test
    void explicitJoinsFollowJoinCollapseLimit() {
        QueryBlock eleven = block(from(leftDeep(rels("t", 11))), chain("t", 11));

        // 1: the written order, ten two-way joins
        PlannerWork written = plan(NO_GEQO.with("join_collapse_limit", "1"), eleven);
        assertThat(sizes(written)).containsExactly(2, 2, 2, 2, 2, 2, 2, 2, 2, 2);
        assertThat(written.totalJoinPairs()).isEqualTo(10);

        // 8: the first eight relations are one problem; t8 cannot join them (9 > 8), so the rest of
        // the joins see the eight as one item: (t0..t7), t8, t9, t10
        PlannerWork eight = plan(NO_GEQO, eleven);
        assertThat(sizes(eight)).containsExactly(8, 4);
        assertThat(eight.searches().get(1).graph().names()).containsExactly("(t0 t1 t2 t3 t4 t5 t6 t7)", "t8", "t9", "t10");
        assertThat(eight.totalJoinPairs()).isEqualTo(84 + 10);

        PlannerWork all = plan(NO_GEQO.with("join_collapse_limit", "20"), eleven);
        assertThat(sizes(all)).containsExactly(11);
        assertThat(all.totalJoinPairs()).isEqualTo(220);
    }

    @Test
    void outerJoinsAreFlattenedLikeInnerOnesButFullJoinsAreNot() {
        List<Predicate> predicates = List.of(clause("a", "b"), clause("b", "c"), clause("c", "d"));
        QueryBlock left = block(from(join(JoinType.LEFT, join(JoinType.LEFT, join(rel("a"), rel("b")), rel("c")), rel("d"))), predicates);
        assertThat(sizes(plan(NO_GEQO, left))).containsExactly(4);

        // (a JOIN b) FULL JOIN (c JOIN d): each side is its own problem, then the two are joined
        QueryBlock full = block(from(join(JoinType.FULL, join(rel("a"), rel("b")), join(rel("c"), rel("d")))), predicates);
        PlannerWork work = plan(NO_GEQO, full);
        assertThat(sizes(work)).containsExactly(2, 2, 2);
        assertThat(work.searches().get(2).graph().names()).containsExactly("(a b)", "(c d)");
    }

    @Test
    void geqoTakesOverAtGeqoThreshold() {
        PlannerWork eleven = plan(PlannerSettings.DEFAULTS, block(from(rels("t", 11)), chain("t", 11)));
        assertThat(eleven.searches()).singleElement().isInstanceOf(JoinSearch.DynamicProgramming.class);

        PlannerWork twelve = plan(PlannerSettings.DEFAULTS, block(from(rels("t", 12)), chain("t", 12)));
        assertThat(twelve.searches()).singleElement().isEqualTo(
                new JoinSearch.Geqo(twelve.searches().get(0).graph(), 250, 250, false, 0));
        JoinSearch.Geqo geqo = (JoinSearch.Geqo) twelve.searches().get(0);
        assertThat(geqo.evaluations()).isEqualTo(500);
        assertThat(geqo.joinPairs()).isEqualTo(22);

        PlannerWork raised = plan(PlannerSettings.DEFAULTS.with("geqo_threshold", "13"), block(from(rels("t", 12)), chain("t", 12)));
        assertThat(raised.searches()).singleElement().isInstanceOf(JoinSearch.DynamicProgramming.class);
    }

    @Test
    void withGeqoOffEveryProblemIsSearchedExhaustively() {
        QueryBlock star = block(from(rels("t", 16)), starLinks(16));
        PlannerWork work = plan(NO_GEQO.with("join_collapse_limit", "30"), star);
        assertThat(work.searches()).singleElement().isInstanceOf(JoinSearch.DynamicProgramming.class);
        assertThat(work.totalJoinPairs()).isEqualTo(245_760); // 15 * 2^14
        assertThat(work.exact()).isTrue();
    }

    @Test
    void equalitiesOnSharedColumnsLinkEveryRelationOfTheirClass() {
        // a.x = b.y AND b.y = c.z: PostgreSQL also derives a.x = c.z, so a-b-c is a triangle
        PlannerWork classes = plan(NO_GEQO, block(from(rel("a"), rel("b"), rel("c")), eq("a.x", "b.y"), eq("b.y", "c.z")));
        assertThat(classes.searches().get(0).graph().adjacent(0, 2)).isTrue();
        assertThat(classes.totalJoinPairs()).isEqualTo(6);

        // the same shape through different columns is a chain
        PlannerWork chain = plan(NO_GEQO, block(from(rel("a"), rel("b"), rel("c")), eq("a.x", "b.y"), eq("b.w", "c.z")));
        assertThat(chain.searches().get(0).graph().adjacent(0, 2)).isFalse();
        assertThat(chain.totalJoinPairs()).isEqualTo(4);
    }

    @Test
    void aClauseOverThreeRelationsLinksEachPair() {
        PlannerWork work = plan(NO_GEQO, block(from(rel("a"), rel("b"), rel("c")), clause("a", "b", "c")));
        assertThat(work.searches().get(0).graph().edgeCount()).isEqualTo(3);
    }

    @Test
    void relationsWithoutClausesAreJoinedByCartesianProducts() {
        PlannerWork work = plan(NO_GEQO, block(from(rel("a"), rel("b"), rel("c"))));
        assertThat(work.totalJoinPairs()).isEqualTo(9); // 3 (2^2 - 1): each relation with each other, both ways
        // a filter or an outer reference adds no edge
        PlannerWork filtered = plan(NO_GEQO, block(from(rel("a"), rel("b")), clause("a"), clause("b", "outer")));
        assertThat(filtered.totalJoinPairs()).isEqualTo(2);
    }

    @Test
    void anAmbiguousNameLinksEveryRelationBearingIt() {
        // a builder that failed to rename a pulled-up "b" leaves two relations named b
        QueryBlock inner = block(from(rel("b"), rel("c")), clause("b", "c"));
        PlannerWork work = plan(NO_GEQO, block(from(rel("a"), rel("b"), pulledUp("s", inner)), clause("a", "b")));
        JoinGraph graph = work.searches().get(0).graph();
        assertThat(graph.names()).containsExactly("a", "b", "b", "c");
        // "a = b" reads as a clause over a, b and b': a-b, a-b', b-b'; "b = c" adds b-c and b'-c
        assertThat(graph.edgeCount()).isEqualTo(5);
    }

    @Test
    void aCorrelatedExistsPulledUpIsASemiJoinInTheSameProblem() {
        // SELECT ... FROM a, b WHERE a.x = b.x AND EXISTS (SELECT FROM c, d WHERE c.y = d.y AND d.z = a.z)
        QueryBlock exists = block(from(rel("c"), rel("d")), eq("c.y", "d.y"), eq("d.z", "a.z"));
        QueryBlock statement = block(from(join(JoinType.SEMI, from(rel("a"), rel("b")), pulledUp("e", exists))),
                eq("a.x", "b.x"));
        PlannerWork work = plan(NO_GEQO, statement);
        assertThat(sizes(work)).containsExactly(4);
        // Chain b-a-d-c has 10 pairs; the semi join builds only a-b, c-d (its right side whole), a|cd (c-d made
        // unique), ab|cd and b|acd: a-d, ab|d and a|dc... with part of c-d are refused (join_is_legal).
        assertThat(work.totalJoinPairs()).isEqualTo(5);
    }

    @Test
    void subSelectsNotPulledUpAreOneRelationHereAndTheirOwnProblemsAfter() {
        QueryBlock grouped = block(from(rels("g", 3)), chain("g", 3));
        QueryBlock scalar = block(from(rel("s0"), rel("s1")), eq("s0.k", "s1.k"));
        QueryBlock statement = new QueryBlock(from(rel("a"), planned("g", grouped)),
                List.of(eq("a.id", "g.id")), List.of(scalar));
        PlannerWork work = plan(NO_GEQO, statement);
        assertThat(sizes(work)).containsExactly(2, 2, 3);
        assertThat(work.searches().get(0).graph().names()).containsExactly("a", "g");
        assertThat(work.largest().orElseThrow().relations()).isEqualTo(3);
    }

    @Test
    void setOperationBranchesArePlannedOneByOne() {
        QueryBlock branch = block(from(rels("t", 5)), chain("t", 5));
        QueryBlock union = new QueryBlock(from(), List.of(), List.of(branch, branch, branch));
        PlannerWork work = plan(PlannerSettings.DEFAULTS, union);
        assertThat(sizes(work)).containsExactly(5, 5, 5);
        assertThat(work.totalJoinPairs()).isEqualTo(3 * 20);
    }

    @Test
    void aSingleRelationIsNoSearch() {
        assertThat(plan(PlannerSettings.DEFAULTS, block(rel("a"))).searches()).isEmpty();
        assertThat(plan(PlannerSettings.DEFAULTS, block(from())).searches()).isEmpty();
    }

    @Test
    void aHugeProblemIsAnsweredWithoutEnumeratingIt() {
        // 40 relations all joined on one key: one equivalence class, a 40-clique, 6·10^18 pairs
        List<Predicate> sameKey = new ArrayList<>();
        for (int i = 1; i < 40; i++) {
            sameKey.add(eq("t0.k", "t" + i + ".k"));
        }
        PlannerWork work = plan(NO_GEQO.with("join_collapse_limit", "100").with("from_collapse_limit", "100"),
                block(from(rels("t", 40)), sameKey));
        assertThat(work.exact()).isFalse();
        assertThat(work.totalJoinPairs()).isGreaterThanOrEqualTo((Math.pow(3, 40) - Math.pow(2, 41) + 1) / 2 * (1 - 1e-12));
    }

    static List<Predicate> starLinks(int n) {
        List<Predicate> predicates = new ArrayList<>();
        for (int i = 1; i < n; i++) {
            predicates.add(link("t", 0, i));
        }
        return predicates;
    }
}

package io.memogate.estimator.planner;

import io.memogate.estimator.planner.JoinTreeNode.FromList;
import io.memogate.estimator.planner.JoinTreeNode.JoinNode;
import io.memogate.estimator.planner.JoinTreeNode.RelationRef;
import io.memogate.estimator.planner.JoinTreeNode.SubqueryRef;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Short spellings for query blocks in tests: {@code block(from(rel("a"), rel("b")), eq("a.x", "b.y"))}. */
public final class Blocks {

    private Blocks() {
    }

    public static RelationRef rel(String name) {
        return new RelationRef(name);
    }

    public static FromList from(JoinTreeNode... items) {
        return FromList.of(items);
    }

    public static JoinNode join(JoinTreeNode left, JoinTreeNode right) {
        return new JoinNode(JoinType.INNER, left, right);
    }

    public static JoinNode join(JoinType type, JoinTreeNode left, JoinTreeNode right) {
        return new JoinNode(type, left, right);
    }

    public static SubqueryRef pulledUp(String alias, QueryBlock block) {
        return new SubqueryRef(alias, block, true);
    }

    public static SubqueryRef planned(String alias, QueryBlock block) {
        return new SubqueryRef(alias, block, false);
    }

    /** {@code "a.x"} and {@code "b.y"}: the equality {@code a.x = b.y}. */
    public static Predicate eq(String left, String right) {
        return new Predicate.Equality(column(left), column(right));
    }

    public static Predicate clause(String... relations) {
        return Predicate.Clause.of(relations);
    }

    public static QueryBlock block(JoinTreeNode from, Predicate... predicates) {
        return new QueryBlock(from, List.of(predicates));
    }

    public static QueryBlock block(JoinTreeNode from, List<Predicate> predicates) {
        return new QueryBlock(from, predicates);
    }

    /** Relations {@code prefix0..prefix(n-1)}. */
    public static RelationRef[] rels(String prefix, int n) {
        RelationRef[] relations = new RelationRef[n];
        for (int i = 0; i < n; i++) {
            relations[i] = rel(prefix + i);
        }
        return relations;
    }

    /** {@code prefix0.c1 = prefix1.c0, prefix1.c2 = prefix2.c1, ...}: a chain, one column per clause end. */
    public static List<Predicate> chain(String prefix, int n) {
        List<Predicate> predicates = new ArrayList<>();
        for (int i = 1; i < n; i++) {
            predicates.add(link(prefix, i - 1, i));
        }
        return predicates;
    }

    /** {@code ti.cj = tj.ci}: columns unique to the pair, so equivalence classes add nothing. */
    public static Predicate link(String prefix, int i, int j) {
        return eq(prefix + i + ".c" + j, prefix + j + ".c" + i);
    }

    /** {@code ((r0 JOIN r1) JOIN r2) ...}, left-deep, as people write it. */
    public static JoinTreeNode leftDeep(JoinTreeNode... relations) {
        return Arrays.stream(relations).reduce(Blocks::join).orElseThrow();
    }

    private static ColumnRef column(String qualified) {
        int dot = qualified.indexOf('.');
        return new ColumnRef(qualified.substring(0, dot), qualified.substring(dot + 1));
    }
}

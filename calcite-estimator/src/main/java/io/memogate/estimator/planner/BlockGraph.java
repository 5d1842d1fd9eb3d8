package io.memogate.estimator.planner;

import io.memogate.estimator.graph.JoinGraph;
import io.memogate.estimator.planner.JoinTreeNode.FromList;
import io.memogate.estimator.planner.JoinTreeNode.JoinNode;
import io.memogate.estimator.planner.JoinTreeNode.RelationRef;
import io.memogate.estimator.planner.JoinTreeNode.SubqueryRef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One SELECT block as an optimizer that joins all its tables in one search sees it, whatever JOIN syntax wrote
 * them: MySQL's (no collapse limit: {@code simplify_joins} flattens inner joins, and outer joins are ordered
 * within the same search by their dependencies) and SQL Server's (one memo per statement). Derived tables the
 * optimizer merges ({@link SubqueryRef#pulledUp()}) are spliced in, and so are IN and EXISTS sub-queries made
 * semi-joins, each where the server does (MySQL: while its {@code derived_merge} and {@code semijoin} flags are
 * on); anything else is planned as a block of its own. Equalities between columns are merged into classes, as
 * MySQL's equality propagation ({@code Item_equal}) and SQL Server's implied predicates do, and link every pair
 * of their tables.
 */
public final class BlockGraph {

    private final List<String> relations = new ArrayList<>();
    /** Per relation, the table it reads; empty for a derived table. */
    private final List<Optional<String>> tables = new ArrayList<>();
    private final List<QueryBlock> separatelyPlanned = new ArrayList<>();
    private final List<Predicate> predicates = new ArrayList<>();
    private final boolean mergeSemiJoins;
    private final boolean mergeDerivedTables;

    /**
     * @param mergeSemiJoins whether IN and EXISTS sub-queries made semi-joins join in the block's search
     * @param mergeDerivedTables whether derived tables without grouping are spliced into the block
     */
    public BlockGraph(QueryBlock block, boolean mergeSemiJoins, boolean mergeDerivedTables) {
        this.mergeSemiJoins = mergeSemiJoins;
        this.mergeDerivedTables = mergeDerivedTables;
        take(block);
    }

    /** The block's relations, in the order they were met. */
    public List<String> relations() {
        return List.copyOf(relations);
    }

    /** Per relation of {@link #relations()}, the table it reads; empty for a derived table. */
    public List<Optional<String>> tables() {
        return List.copyOf(tables);
    }

    /** Blocks planned on their own: derived tables not merged, sub-queries that stay sub-queries, branches. */
    public List<QueryBlock> separatelyPlanned() {
        return List.copyOf(separatelyPlanned);
    }

    private void take(QueryBlock block) {
        predicates.addAll(block.predicates());
        separatelyPlanned.addAll(block.separatelyPlanned());
        add(block.from());
    }

    private void add(JoinTreeNode node) {
        switch (node) {
            case RelationRef relation -> {
                relations.add(relation.name());
                tables.add(relation.table());
            }
            case FromList list -> list.items().forEach(this::add);
            case JoinNode join when (join.type() == JoinType.SEMI || join.type() == JoinType.ANTI)
                    && !mergeSemiJoins -> {
                add(join.left());
                separately(join.right());
            }
            case JoinNode join -> {
                add(join.left());
                add(join.right());
            }
            case SubqueryRef sub when sub.pulledUp() && mergeDerivedTables -> take(sub.block());
            case SubqueryRef sub -> {
                separatelyPlanned.add(sub.block());
                relations.add(sub.alias());
                tables.add(Optional.empty());
            }
        }
    }

    /** A side of a semi-join MySQL runs as a sub-query: planned alone, as a block of its relations. */
    private void separately(JoinTreeNode side) {
        if (side instanceof SubqueryRef sub) {
            separatelyPlanned.add(sub.block());
        } else {
            separatelyPlanned.add(new QueryBlock(side, List.of()));
        }
    }

    /** The join graph of the block's relations. */
    public JoinGraph graph() {
        JoinGraph.Builder builder = JoinGraph.builder();
        Map<String, List<Integer>> byName = new HashMap<>();
        for (String name : relations) {
            byName.computeIfAbsent(name, n -> new ArrayList<>()).add(builder.addRelation(name));
        }
        Map<ColumnRef, ColumnRef> classes = new HashMap<>();
        for (Predicate predicate : predicates) {
            switch (predicate) {
                case Predicate.Equality eq -> union(classes, eq.left(), eq.right());
                case Predicate.Clause clause -> {
                    List<Integer> members = members(byName, clause.relations());
                    if (clause.equality()) {
                        builder.addClause(members);
                    } else {
                        builder.addJoinFilter(members);
                    }
                }
                // A plain join condition, made inner or not: MySQL's simplify_joins may turn the join inner and
                // merge the equality into a multiple equality, which this model does not follow.
                case Predicate.OuterJoinEquality outer -> builder.addClause(members(byName, outer.relations()));
                case Predicate.Pin pin -> {
                    // joins nothing
                }
            }
        }
        Map<ColumnRef, List<String>> byClass = new HashMap<>();
        for (ColumnRef column : classes.keySet()) {
            byClass.computeIfAbsent(find(classes, column), c -> new ArrayList<>()).add(column.relation());
        }
        for (List<String> names : byClass.values()) {
            builder.addClause(members(byName, names));
        }
        return builder.build();
    }

    /**
     * The classes of columns that equalities between columns make equal (MySQL's {@code Item_equal}): each a
     * column of one relation can be looked up by from any other's.
     */
    public List<List<ColumnRef>> equalityClasses() {
        Map<ColumnRef, ColumnRef> classes = new HashMap<>();
        for (Predicate predicate : predicates) {
            if (predicate instanceof Predicate.Equality eq) {
                union(classes, eq.left(), eq.right());
            }
        }
        Map<ColumnRef, List<ColumnRef>> byClass = new HashMap<>();
        for (ColumnRef column : classes.keySet()) {
            byClass.computeIfAbsent(find(classes, column), c -> new ArrayList<>()).add(column);
        }
        return List.copyOf(byClass.values());
    }

    private static List<Integer> members(Map<String, List<Integer>> byName, Iterable<String> names) {
        List<Integer> members = new ArrayList<>();
        for (String name : names) {
            members.addAll(byName.getOrDefault(name, List.of())); // an outer reference links nothing
        }
        return members;
    }

    private static void union(Map<ColumnRef, ColumnRef> parents, ColumnRef a, ColumnRef b) {
        parents.putIfAbsent(a, a);
        parents.putIfAbsent(b, b);
        ColumnRef ra = find(parents, a);
        ColumnRef rb = find(parents, b);
        if (!ra.equals(rb)) {
            parents.put(ra, rb);
        }
    }

    private static ColumnRef find(Map<ColumnRef, ColumnRef> parents, ColumnRef c) {
        ColumnRef root = c;
        while (!parents.get(root).equals(root)) {
            root = parents.get(root);
        }
        return root;
    }
}

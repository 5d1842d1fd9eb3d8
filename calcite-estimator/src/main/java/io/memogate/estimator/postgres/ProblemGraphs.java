package io.memogate.estimator.postgres;

import io.memogate.estimator.graph.JoinGraph;
import io.memogate.estimator.graph.OrderRestriction;
import io.memogate.estimator.planner.ColumnRef;
import io.memogate.estimator.planner.IndexedColumns;
import io.memogate.estimator.planner.Predicate;
import io.memogate.estimator.postgres.JoinLists.Item;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.StringJoiner;

/**
 * Builds the join graph of each problem of one query block from the block's predicates.
 *
 * <p>A problem's vertices are its items; two items are linked when a clause references relations in
 * both (by overlap, as {@code have_relevant_joinclause} tests it, so a clause over three items links
 * all three pairs, see {@link JoinGraph}). Equalities between columns are first merged into
 * equivalence classes, as {@code process_equivalence} does (src/backend/optimizer/path/equivclass.c),
 * and each class is one clause over all its members' relations: PostgreSQL can derive a join clause
 * between any two of them ({@code have_relevant_eclass_joinclause}). Each class, and each other
 * clause, stays one clause of the graph, so that a pair's crossing classes are counted once each, as
 * PostgreSQL generates one join clause per class for a join ({@link JoinGraph}); a clause that is not an
 * equality is a join filter there. With the catalog's indexes, a class member whose column leads an index of
 * its table can be scanned by it parameterized by the class's other members ({@link IndexedColumns},
 * {@link JoinGraph.Builder#markIndexScan}). A clause whose
 * relations fall into one item of a problem is a filter there. Classes are merged across the whole
 * block, ignoring that PostgreSQL 16+ keeps the nullable side of an outer join in its own join
 * domain; that can only add edges. A name used by several relations links all of them, the
 * conservative reading of an ambiguous reference; a name of no relation (an outer reference) is a
 * parameter and links nothing.
 *
 * <p>The block's outer, semi and anti joins restrict each problem's join order over the items that hold their
 * relations ({@link OrderRestriction}); one whose sides fall into one item, or share an item, is done inside
 * that item and restricts nothing here.
 */
final class ProblemGraphs {

    /** Each equivalence class or other equality as the set of relations (leaf numbers) it references. */
    private final List<int[]> clauses = new ArrayList<>();
    /** Each other join clause likewise ({@link JoinGraph.Builder#addJoinFilter}). */
    private final List<int[]> joinFilters = new ArrayList<>();
    /** Index scans as {relation, partner} (leaf numbers): see {@link JoinGraph.Builder#markIndexScan}. */
    private final List<int[]> indexScans = new ArrayList<>();
    private final List<String> relationNames;
    private final List<SpecialJoins.Restriction> restrictions;

    /**
     * @param relationNames the block's relations, by leaf number
     * @param tables each relation's table, empty for a CTE, function or sub-select scan
     * @param indexes the catalog's indexed columns, for the index scans of equivalence classes' members
     * @param restrictions the block's outer, semi and anti joins, lower ones first
     * @param pins the columns pinned to constants: a class holding a constant joins nothing
     */
    ProblemGraphs(List<String> relationNames, List<Optional<String>> tables, List<Predicate> predicates,
                  IndexedColumns indexes, List<SpecialJoins.Restriction> restrictions, PinnedColumns pins) {
        this.relationNames = relationNames;
        this.restrictions = restrictions;
        Map<String, List<Integer>> relationsByName = new HashMap<>();
        for (int r = 0; r < relationNames.size(); r++) {
            relationsByName.computeIfAbsent(relationNames.get(r), name -> new ArrayList<>()).add(r);
        }
        EquivalenceClasses classes = new EquivalenceClasses();
        for (Predicate predicate : predicates) {
            switch (predicate) {
                case Predicate.Equality equality -> classes.merge(equality.left(), equality.right());
                case Predicate.Clause clause -> add(clause.relations(), relationsByName,
                        clause.equality() ? clauses : joinFilters);
                case Predicate.OuterJoinEquality outer -> add(outer.relations(), relationsByName, clauses);
                case Predicate.Pin pin -> {
                    // joins nothing
                }
            }
        }
        for (List<ColumnRef> members : classes.members()) {
            if (pins.constant(members.get(0))) {
                continue;
            }
            Set<String> relations = new LinkedHashSet<>();
            members.forEach(column -> relations.add(column.relation()));
            add(relations, relationsByName, clauses);
            if (indexes != IndexedColumns.NONE) {
                addIndexScans(members, relationsByName, tables, indexes);
            }
        }
    }

    /**
     * A member whose column in the class leads an index of its table can be scanned by that index
     * parameterized by any other relation of the class (the class gives a join clause between them).
     */
    private void addIndexScans(List<ColumnRef> members, Map<String, List<Integer>> relationsByName,
                               List<Optional<String>> tables, IndexedColumns indexes) {
        for (ColumnRef member : members) {
            for (int scanned : relationsByName.getOrDefault(member.relation(), List.of())) {
                if (tables.get(scanned).filter(table -> indexes.leadsIndex(table, member.column())).isEmpty()) {
                    continue;
                }
                for (ColumnRef partner : members) {
                    for (int by : relationsByName.getOrDefault(partner.relation(), List.of())) {
                        if (by != scanned) {
                            indexScans.add(new int[] {scanned, by});
                        }
                    }
                }
            }
        }
    }

    private static void add(Set<String> names, Map<String, List<Integer>> relationsByName, List<int[]> into) {
        int[] relations = names.stream()
                .flatMap(name -> relationsByName.getOrDefault(name, List.of()).stream())
                .mapToInt(Integer::intValue).distinct().toArray();
        if (relations.length >= 2) {
            into.add(relations);
        }
    }

    /** The join graph over {@code items}, each named by its relations. */
    JoinGraph graph(List<Item> items) {
        int[] itemOf = new int[relationNames.size()];
        Arrays.fill(itemOf, -1);
        JoinGraph.Builder builder = JoinGraph.builder();
        for (int i = 0; i < items.size(); i++) {
            StringJoiner name = new StringJoiner(" ", "(", ")");
            for (int relation : relationsOf(items.get(i), new ArrayList<>())) {
                itemOf[relation] = i;
                name.add(relationNames.get(relation));
            }
            builder.addRelation(items.get(i) instanceof Item.Leaf leaf
                    ? relationNames.get(leaf.relation()) : name.toString());
        }
        for (int[] clause : clauses) {
            builder.addClause(itemsOf(clause, itemOf));
        }
        for (int[] filter : joinFilters) {
            builder.addJoinFilter(itemsOf(filter, itemOf));
        }
        for (int[] scan : indexScans) {
            if (itemOf[scan[0]] >= 0 && itemOf[scan[1]] >= 0) {
                builder.markIndexScan(itemOf[scan[0]], itemOf[scan[1]]);
            }
        }
        List<Sides> restricted = new ArrayList<>();
        for (SpecialJoins.Restriction restriction : restrictions) {
            List<Integer> anyOrder = new ArrayList<>(itemsOf(restriction.anyOrder(), itemOf));
            for (int a = 0; a < anyOrder.size(); a++) {
                for (int b = a + 1; b < anyOrder.size(); b++) {
                    builder.addJoinFilter(List.of(anyOrder.get(a), anyOrder.get(b)));
                }
            }
            Set<Integer> minLeft = itemsOf(restriction.minLeft(), itemOf);
            Set<Integer> minRight = itemsOf(restriction.minRight(), itemOf);
            if (!minLeft.isEmpty() && !minRight.isEmpty() && Collections.disjoint(minLeft, minRight)) {
                builder.restrict(new OrderRestriction(restriction.semi(), minLeft, minRight,
                        itemsOf(restriction.right(), itemOf)));
                restricted.add(new Sides(minLeft, minRight));
            }
        }
        JoinGraph graph = builder.build();
        // A join whose condition links none of its needed relations (ON true, often before a LATERAL sub-select)
        // is still made, once its sides are whole: have_join_order_restriction has PostgreSQL join them.
        boolean linked = true;
        for (Sides sides : restricted) {
            if (!linkedAcross(graph, sides.left(), sides.right())) {
                linked = false;
                for (int a : sides.left()) {
                    for (int b : sides.right()) {
                        builder.addJoinFilter(List.of(a, b));
                    }
                }
            }
        }
        return linked ? graph : builder.build();
    }

    private static Set<Integer> itemsOf(int[] relations, int[] itemOf) {
        Set<Integer> touched = new LinkedHashSet<>();
        for (int relation : relations) {
            if (itemOf[relation] >= 0) {
                touched.add(itemOf[relation]);
            }
        }
        return touched;
    }

    /** The items an outer, semi or anti join needs on each side. */
    private record Sides(Set<Integer> left, Set<Integer> right) {
    }

    private static boolean linkedAcross(JoinGraph graph, Set<Integer> left, Set<Integer> right) {
        for (int a : left) {
            for (int b : right) {
                if (graph.adjacent(a, b)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static Set<Integer> itemsOf(BitSet relations, int[] itemOf) {
        return itemsOf(relations.stream().toArray(), itemOf);
    }

    private static List<Integer> relationsOf(Item item, List<Integer> into) {
        switch (item) {
            case Item.Leaf leaf -> into.add(leaf.relation());
            case Item.Sub sub -> sub.items().forEach(child -> relationsOf(child, into));
        }
        return into;
    }
}

package io.memogate.estimator.postgres;

import io.memogate.estimator.planner.JoinTreeNode.FromList;
import io.memogate.estimator.planner.JoinTreeNode.JoinNode;
import io.memogate.estimator.planner.JoinTreeNode.RelationRef;
import io.memogate.estimator.planner.JoinTreeNode.SubqueryRef;
import io.memogate.estimator.planner.JoinTreeNode;
import io.memogate.estimator.planner.JoinType;
import io.memogate.estimator.planner.Predicate;
import io.memogate.estimator.planner.QueryBlock;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * PostgreSQL's {@code deconstruct_recurse} (src/backend/optimizer/plan/initsplan.c, PostgreSQL 17),
 * which turns a query's join tree into a "joinlist": items to be joined in an order the join search
 * chooses, where an item is a base relation or a sub-joinlist planned on its own. Pulled-up
 * sub-selects are spliced in on the way, as {@code pull_up_subqueries} would have done before.
 *
 * <p>One instance per query block; it also collects the block's relations, its predicates (its own
 * and those of pulled-up sub-selects), the blocks planned separately and the outer, semi and anti joins
 * that restrict the join order ({@link SpecialJoins}).
 *
 * <p>It then removes what {@code remove_useless_joins} (src/backend/optimizer/plan/analyzejoins.c) removes: a
 * LEFT JOIN's nullable side that is one table joined on its unique key ({@link QueryBlock#keyJoined()}) and that
 * no condition but the join's own references, here or in a block planned apart (a correlated sub-query, a
 * LATERAL sub-select), repeated until nothing more goes, since a removed join's condition no longer holds the
 * tables it referenced. As PostgreSQL does, after the joinlists were split under the collapse limits.
 */
final class JoinLists {

    /** A joinlist member: a base relation, or a sub-problem. */
    sealed interface Item {
        record Leaf(int relation) implements Item {
        }

        record Sub(List<Item> items) implements Item {
        }
    }

    private final PlannerSettings settings;
    final List<String> relationNames = new ArrayList<>();
    /** Each relation's table, by leaf number; empty for the single-path scans of CTEs, functions, sub-selects. */
    final List<Optional<String>> tables = new ArrayList<>();
    final List<Predicate> predicates = new ArrayList<>();
    final List<QueryBlock> separatelyPlanned = new ArrayList<>();
    final List<Item> joinlist;
    final List<SpecialJoins.Restriction> restrictions;
    private final SpecialJoins specialJoins = new SpecialJoins();
    /**
     * The relations of the node just deconstructed that inner joins join there: PostgreSQL's
     * {@code inner_join_rels}, which an outer join's minimal right side includes.
     */
    private BitSet innerJoined = new BitSet();
    private final Set<String> keyJoined = new HashSet<>();
    /** The LEFT joins whose nullable side is one key-joined table: its leaf, and the join's own conditions. */
    private final List<Removable> removable = new ArrayList<>();

    private record Removable(int leaf, List<Predicate> on) {
    }

    /**
     * @param uniqueKey whether a table has the unique index on its key column that join removal needs: what
     *     the catalog says where there is one
     */
    JoinLists(QueryBlock block, PlannerSettings settings, java.util.function.Predicate<String> uniqueKey) {
        this.settings = settings;
        predicates.addAll(block.predicates());
        separatelyPlanned.addAll(block.separatelyPlanned());
        keyJoined.addAll(block.keyJoined());
        joinlist = withoutUselessJoins(fromList(asFromList(block.from())), uniqueKey);
        Map<String, Integer> leafByName = new HashMap<>();
        for (int r = 0; r < relationNames.size(); r++) {
            leafByName.putIfAbsent(relationNames.get(r), r);
        }
        SpecialJoins.Resolved resolved = specialJoins.resolve(predicates, predicate -> {
            BitSet leaves = new BitSet();
            for (String name : predicate.relations()) {
                Integer leaf = leafByName.get(name);
                if (leaf != null) {
                    leaves.set(leaf);
                }
            }
            return leaves;
        });
        restrictions = resolved.restrictions();
        // A LEFT join made inner is planned as one: its ON equalities join the equivalence classes.
        predicates.replaceAll(predicate -> predicate instanceof Predicate.OuterJoinEquality outer
                && resolved.madeInner().contains(predicate) ? outer.columns() : predicate);
    }

    /** Deconstructs {@code node}, leaving the relations inner joins join in it in {@link #innerJoined}. */
    private List<Item> deconstruct(JoinTreeNode node) {
        int first = relationNames.size();
        List<Item> items = deconstructNode(node);
        BitSet all = new BitSet();
        all.set(first, relationNames.size());
        boolean inner = switch (node) {
            case FromList list -> list.items().size() >= 2;
            case JoinNode join -> join.type() == JoinType.INNER || join.type() == JoinType.CROSS;
            case SubqueryRef sub -> sub.pulledUp() && sub.block().from() instanceof FromList list
                    && list.items().size() >= 2;
            case RelationRef relation -> false;
        };
        if (inner) {
            innerJoined = all;
        } else if (node instanceof RelationRef || node instanceof SubqueryRef sub && !sub.pulledUp()) {
            innerJoined = new BitSet();
        }
        return items;
    }

    private List<Item> deconstructNode(JoinTreeNode node) {
        return switch (node) {
            case RelationRef relation -> List.of(leaf(relation.name(), relation.table()));
            case FromList list -> fromList(list);
            case JoinNode join -> join(join);
            case SubqueryRef sub when sub.pulledUp() -> {
                predicates.addAll(sub.block().predicates());
                keyJoined.addAll(sub.block().keyJoined());
                separatelyPlanned.addAll(sub.block().separatelyPlanned());
                // pull_up_simple_subquery replaces the reference with the sub-select's FromExpr
                yield fromList(asFromList(sub.block().from()));
            }
            case SubqueryRef sub -> {
                separatelyPlanned.add(sub.block());
                yield List.of(leaf(sub.alias(), Optional.empty()));
            }
        };
    }

    /**
     * A FromExpr: each child's joinlist is merged into this one while the result stays within
     * from_collapse_limit, counting the children still to come ({@code remaining}) so the outcome does
     * not depend on the order; one-item children always merge.
     */
    private List<Item> fromList(FromList from) {
        List<Item> joinlist = new ArrayList<>();
        int remaining = from.items().size();
        for (JoinTreeNode child : from.items()) {
            List<Item> sub = deconstruct(child);
            remaining--;
            if (sub.size() <= 1 || joinlist.size() + sub.size() + remaining <= settings.fromCollapseLimit()) {
                joinlist.addAll(sub);
            } else {
                joinlist.add(new Item.Sub(sub));
            }
        }
        return joinlist;
    }

    /**
     * A JoinExpr. A FULL JOIN forces the join order at its node: its two sides become one two-item
     * sub-problem. Any other join (inner, and since PostgreSQL 8.2 also LEFT, RIGHT, SEMI and ANTI,
     * whose order constraints the join search enforces) merges both sides while they have at most
     * join_collapse_limit items together, and otherwise returns them as two items, unwrapping a side
     * of one item ("avoid creating useless 1-element sublists").
     */
    private List<Item> join(JoinNode join) {
        int first = relationNames.size();
        List<Item> left = deconstruct(join.left());
        BitSet innerLeft = innerJoined;
        int middle = relationNames.size();
        List<Item> right = deconstruct(join.right());
        BitSet innerRight = innerJoined;
        BitSet leftRelations = new BitSet();
        leftRelations.set(first, middle);
        BitSet rightRelations = new BitSet();
        rightRelations.set(middle, relationNames.size());
        if (join.type() == JoinType.LEFT && join.right() instanceof RelationRef relation
                && keyJoined.contains(relation.name()) && rightRelations.cardinality() == 1) {
            removable.add(new Removable(middle, join.on()));
        }
        if (join.type() == JoinType.RIGHT) {
            specialJoins.add(join.type(), rightRelations, leftRelations, innerLeft, join.on());
        } else {
            specialJoins.add(join.type(), leftRelations, rightRelations, innerRight, join.on());
        }
        BitSet bothInner = (BitSet) innerLeft.clone();
        bothInner.or(innerRight);
        innerJoined = bothInner;
        if (join.type() == JoinType.FULL) {
            return List.of(new Item.Sub(List.of(unwrap(left), unwrap(right))));
        }
        if (left.size() + right.size() <= settings.joinCollapseLimit()) {
            List<Item> merged = new ArrayList<>(left);
            merged.addAll(right);
            return merged;
        }
        return List.of(unwrap(left), unwrap(right));
    }

    /** {@code remove_useless_joins}: the joinlist without the removable joins' nullable sides. */
    private List<Item> withoutUselessJoins(List<Item> items, java.util.function.Predicate<String> uniqueKey) {
        Set<Predicate> gone = Collections.newSetFromMap(new IdentityHashMap<>());
        BitSet removed = new BitSet();
        Set<String> readApart = new HashSet<>();
        separatelyPlanned.forEach(block -> readApart(block, readApart));
        boolean more = true;
        while (more) {
            more = false;
            for (Removable join : removable) {
                String name = relationNames.get(join.leaf());
                if (removed.get(join.leaf()) || readApart.contains(name)
                        || !tables.get(join.leaf()).map(uniqueKey::test).orElse(false)) {
                    continue;
                }
                Set<Predicate> own = Collections.newSetFromMap(new IdentityHashMap<>());
                own.addAll(join.on());
                boolean read = predicates.stream().anyMatch(p -> !own.contains(p) && !gone.contains(p)
                        && p.relations().contains(name));
                if (!read) {
                    removed.set(join.leaf());
                    gone.addAll(own);
                    specialJoins.remove(join.leaf());
                    more = true;
                }
            }
        }
        if (removed.isEmpty()) {
            return items;
        }
        predicates.removeIf(gone::contains);
        return without(items, removed);
    }

    /** The relation names the predicates of {@code block} and of everything planned inside it reference. */
    private static void readApart(QueryBlock block, Set<String> names) {
        block.predicates().forEach(p -> names.addAll(p.relations()));
        block.separatelyPlanned().forEach(inner -> readApart(inner, names));
        pulledUp(block.from(), names);
    }

    private static void pulledUp(JoinTreeNode node, Set<String> names) {
        switch (node) {
            case FromList list -> list.items().forEach(item -> pulledUp(item, names));
            case JoinNode join -> {
                pulledUp(join.left(), names);
                pulledUp(join.right(), names);
            }
            case SubqueryRef sub -> readApart(sub.block(), names);
            case RelationRef relation -> { }
        }
    }

    /** {@code remove_rel_from_joinlist}, for each removed leaf. */
    private static List<Item> without(List<Item> items, BitSet removed) {
        List<Item> kept = new ArrayList<>();
        for (Item item : items) {
            switch (item) {
                case Item.Leaf leaf -> {
                    if (!removed.get(leaf.relation())) {
                        kept.add(leaf);
                    }
                }
                case Item.Sub sub -> kept.add(new Item.Sub(without(sub.items(), removed)));
            }
        }
        return kept;
    }

    private static Item unwrap(List<Item> joinlist) {
        return joinlist.size() == 1 ? joinlist.get(0) : new Item.Sub(joinlist);
    }

    private Item leaf(String name, Optional<String> table) {
        relationNames.add(name);
        tables.add(table);
        return new Item.Leaf(relationNames.size() - 1);
    }

    /** The top of a query's join tree is always a FromExpr. */
    private static FromList asFromList(JoinTreeNode node) {
        return node instanceof FromList list ? list : FromList.of(node);
    }
}

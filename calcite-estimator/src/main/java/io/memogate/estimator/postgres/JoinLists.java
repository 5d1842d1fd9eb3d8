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

    JoinLists(QueryBlock block, PlannerSettings settings) {
        this.settings = settings;
        predicates.addAll(block.predicates());
        separatelyPlanned.addAll(block.separatelyPlanned());
        joinlist = fromList(asFromList(block.from()));
        Map<String, Integer> leafByName = new HashMap<>();
        for (int r = 0; r < relationNames.size(); r++) {
            leafByName.putIfAbsent(relationNames.get(r), r);
        }
        restrictions = specialJoins.resolve(predicates, predicate -> {
            BitSet leaves = new BitSet();
            for (String name : predicate.relations()) {
                Integer leaf = leafByName.get(name);
                if (leaf != null) {
                    leaves.set(leaf);
                }
            }
            return leaves;
        });
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

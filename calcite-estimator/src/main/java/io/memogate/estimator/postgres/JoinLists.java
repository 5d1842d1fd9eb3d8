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
import java.util.List;
import java.util.Optional;

/**
 * PostgreSQL's {@code deconstruct_recurse} (src/backend/optimizer/plan/initsplan.c, PostgreSQL 17),
 * which turns a query's join tree into a "joinlist": items to be joined in an order the join search
 * chooses, where an item is a base relation or a sub-joinlist planned on its own. Pulled-up
 * sub-selects are spliced in on the way, as {@code pull_up_subqueries} would have done before.
 *
 * <p>One instance per query block; it also collects the block's relations, its predicates (its own
 * and those of pulled-up sub-selects) and the blocks planned separately.
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

    JoinLists(QueryBlock block, PlannerSettings settings) {
        this.settings = settings;
        predicates.addAll(block.predicates());
        separatelyPlanned.addAll(block.separatelyPlanned());
        joinlist = fromList(asFromList(block.from()));
    }

    private List<Item> deconstruct(JoinTreeNode node) {
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
        List<Item> left = deconstruct(join.left());
        List<Item> right = deconstruct(join.right());
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

package io.memogate.estimator.calcite;

import io.memogate.estimator.planner.ColumnRef;
import io.memogate.estimator.planner.JoinTreeNode;
import io.memogate.estimator.planner.JoinTreeNode.FromList;
import io.memogate.estimator.planner.JoinTreeNode.JoinNode;
import io.memogate.estimator.planner.JoinTreeNode.RelationRef;
import io.memogate.estimator.planner.JoinTreeNode.SubqueryRef;
import io.memogate.estimator.planner.Predicate;
import io.memogate.estimator.planner.QueryBlock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSetOperator;

/** Small readings of a parsed query that {@link QueryBlockBuilder} and {@link LexicalFallback} share. */
final class QueryParts {

    private QueryParts() {
    }

    /**
     * A block under a LIMIT or FETCH FIRST, which PostgreSQL plans for its first rows
     * ({@code preprocess_limit}). The branches of a UNION ALL inherit the fraction; those of UNION,
     * INTERSECT and EXCEPT read all their rows ({@code generate_union_paths}), so they do not.
     */
    static QueryBlock forFirstRows(SqlNode query, QueryBlock block) {
        if (query.getKind() == SqlKind.UNION && ((SqlCall) query).getOperator() instanceof SqlSetOperator union
                && union.isAll()) {
            List<SqlNode> operands = ((SqlCall) query).getOperandList();
            List<QueryBlock> branches = new ArrayList<>();
            for (int i = 0; i < block.separatelyPlanned().size(); i++) {
                QueryBlock branch = block.separatelyPlanned().get(i);
                branches.add(i < operands.size() ? forFirstRows(operands.get(i), branch) : branch);
            }
            return block.forFirstRows(branches);
        }
        return block.forFirstRows();
    }

    /** The AND-ed terms of a condition, in order; none for no condition. */
    static List<SqlNode> conjuncts(SqlNode condition) {
        List<SqlNode> out = new ArrayList<>();
        Deque<SqlNode> todo = new ArrayDeque<>();
        if (condition != null) {
            todo.push(condition);
        }
        while (!todo.isEmpty()) {
            SqlNode n = todo.pop();
            if (n.getKind() == SqlKind.AND) {
                List<SqlNode> operands = ((SqlCall) n).getOperandList();
                for (int i = operands.size() - 1; i >= 0; i--) {
                    todo.push(operands.get(i));
                }
            } else {
                out.add(n);
            }
        }
        return out;
    }

    /** A column reference's name, or the expression's text for another expression. */
    static String columnName(SqlNode expression) {
        return expression instanceof SqlIdentifier id ? id.names.get(id.names.size() - 1) : expression.toString();
    }

    /** A select item's name: its alias, or its column's; null for an unnamed expression. */
    static String outputName(SqlNode item) {
        if (item.getKind() == SqlKind.AS) {
            return ((SqlIdentifier) ((SqlBasicCall) item).operand(1)).getSimple();
        }
        return item instanceof SqlIdentifier id ? id.names.get(id.names.size() - 1) : null;
    }

    /** The relations a FROM tree puts into its block's problem, pulled-up sub-selects expanded. */
    static Set<String> relationsOf(JoinTreeNode node) {
        Set<String> out = new LinkedHashSet<>();
        Deque<JoinTreeNode> todo = new ArrayDeque<>(List.of(node));
        while (!todo.isEmpty()) {
            switch (todo.pop()) {
                case RelationRef r -> out.add(r.name());
                case JoinNode j -> {
                    todo.push(j.right());
                    todo.push(j.left());
                }
                case FromList l -> l.items().forEach(todo::push);
                case SubqueryRef s -> {
                    if (s.pulledUp()) {
                        todo.push(s.block().from());
                    } else {
                        out.add(s.alias());
                    }
                }
            }
        }
        return out;
    }

    /**
     * The relation of {@code side} whose {@code column} a USING clause names, when an earlier USING equality of
     * that column shows it: in {@code a JOIN b USING (id) JOIN c USING (id)} the second USING's left column is
     * the join's {@code id}, {@code a.id}, so that all three are one equivalence class, as PostgreSQL has them.
     * Otherwise the whole side: which of its relations has the column needs the catalog.
     */
    static Set<String> usingOwner(Set<String> side, String column, List<Predicate> predicates) {
        if (side.size() <= 1) {
            return side;
        }
        for (Predicate p : predicates) {
            if (p instanceof Predicate.Equality e && e.left().column().equals(column)
                    && side.contains(e.left().relation()) && side.contains(e.right().relation())) {
                return Set.of(e.left().relation());
            }
        }
        return side;
    }

    /**
     * An equality between {@code left} and {@code right}: a column equality when both sides are one relation each
     * (joining an equivalence class, or for an outer join's condition ({@code inner} false) joining one once the
     * join is made inner), else a clause, usable by merge and hash joins when the sides' relations differ.
     */
    static void link(Set<String> left, Set<String> right, String column, List<Predicate> predicates,
                             boolean inner) {
        if (left.size() == 1 && right.size() == 1 && !left.equals(right)) {
            predicates.add(columnEquality(new ColumnRef(left.iterator().next(), column),
                    new ColumnRef(right.iterator().next(), column), inner));
            return;
        }
        Set<String> all = new LinkedHashSet<>(left);
        all.addAll(right);
        if (all.size() >= 2) {
            boolean splits = !left.isEmpty() && !right.isEmpty() && Collections.disjoint(left, right);
            predicates.add(new Predicate.Clause(all, splits));
        }
    }

    /** {@code left = right}: an inner condition's joins the classes at once, an outer join's once it is made inner. */
    static Predicate columnEquality(ColumnRef left, ColumnRef right, boolean inner) {
        return inner ? new Predicate.Equality(left, right) : new Predicate.OuterJoinEquality(left, right);
    }

    /**
     * The clause of {@code tested IN (query)} ({@code convert_ANY_sublink_to_join}): between a column and a pulled-up
     * sub-select's output column it joins the equivalence classes of both, as a WHERE equality does ({@code t1.id IN
     * (SELECT t2.k FROM t2)} where {@code t0.k = t1.id} also joins t2 with t0); otherwise as {@link #link} with
     * {@code column} standing for the sub-select's output.
     */
    static void linkIn(SqlNode tested, SqlNode query, boolean pulledUp, Set<String> left, Set<String> right,
                       String column, List<Predicate> predicates) {
        if (tested instanceof SqlIdentifier && left.size() == 1 && right.size() == 1 && !left.equals(right)) {
            String output = pulledUp ? firstColumn(query).orElse(column) : column;
            predicates.add(new Predicate.Equality(new ColumnRef(left.iterator().next(), columnName(tested)),
                    new ColumnRef(right.iterator().next(), output)));
        } else {
            link(left, right, column, predicates, true);
        }
    }

    /** The column a sub-select's first output reads, when that output is a column as written. */
    private static Optional<String> firstColumn(SqlNode query) {
        if (!(query instanceof SqlSelect select) || select.getSelectList().isEmpty()) {
            return Optional.empty();
        }
        SqlNode item = select.getSelectList().get(0);
        SqlNode column = item.getKind() == SqlKind.AS ? ((SqlCall) item).operand(0) : item;
        return column instanceof SqlIdentifier id && !id.isStar() ? Optional.of(columnName(id)) : Optional.empty();
    }

    /** A SELECT without grouping, DISTINCT, LIMIT / OFFSET or windows: one a query above may pull up. */
    static boolean simple(SqlSelect select) {
        return select.getGroup() == null && select.getHaving() == null && !select.isDistinct()
                && select.getFetch() == null && select.getOffset() == null
                && (select.getWindowList() == null || select.getWindowList().isEmpty())
                && !GroupingFinder.in(select.getSelectList());
    }

    /**
     * Whether {@code select} groups or aggregates without grouping sets, which PostgreSQL does not group partition
     * by partition ({@code create_grouping_paths}).
     */
    static boolean aggregates(SqlSelect select) {
        SqlNodeList group = select.getGroup();
        if (group != null && group.stream().anyMatch(item -> item != null && (item.getKind() == SqlKind.ROLLUP
                || item.getKind() == SqlKind.CUBE || item.getKind() == SqlKind.GROUPING_SETS))) {
            return false;
        }
        return group != null && !group.isEmpty() || select.getHaving() != null
                || GroupingFinder.in(select.getSelectList());
    }

    /**
     * Whether {@code condition} equates {@code relation}'s key column with a column of another relation. The text
     * does not show the unique indexes PostgreSQL needs to remove the join; a column named {@code id} is taken for
     * the table's primary key, the convention of most schemas and ORMs (the planner model checks the catalog's
     * indexes where it has them).
     */
    static boolean joinedOnKey(String relation, SqlNode condition, Scope scope) {
        for (SqlNode conjunct : conjuncts(condition)) {
            if (conjunct.getKind() != SqlKind.EQUALS) {
                continue;
            }
            SqlCall eq = (SqlCall) conjunct;
            for (int side = 0; side < 2; side++) {
                if (eq.operand(side) instanceof SqlIdentifier key && QueryBlock.KEY_COLUMN.equalsIgnoreCase(columnName(key))
                        && ReferencedRelations.of(key, scope, q -> { }).equals(Set.of(relation))
                        && eq.operand(1 - side) instanceof SqlIdentifier other) {
                    Set<String> otherSide = ReferencedRelations.of(other, scope, q -> { });
                    if (!otherSide.isEmpty() && !otherSide.contains(relation)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /**
     * Of the relations LEFT-joined on their key ({@code candidates}), those PostgreSQL removes: read by nothing
     * ({@code read}: the output, grouping, other conditions) and not behind a {@code *}.
     */
    static Set<String> removable(Set<String> candidates, Set<String> read, SqlSelect select) {
        if (select.getSelectList().stream().anyMatch(item -> item instanceof SqlIdentifier id && id.isStar())) {
            return Set.of();
        }
        Set<String> removable = new HashSet<>(candidates);
        removable.removeAll(read);
        return removable;
    }
}

package io.memogate.estimator.calcite;

import io.memogate.estimator.planner.ColumnRef;
import io.memogate.estimator.planner.Predicate;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;

/**
 * Recognizes the conjuncts that pin a column to constants: {@code column = constant}, {@code constant = column}
 * and {@code column IN (constant, ...)}, a constant being a literal, a parameter, or either of them cast or
 * negated. These are what PostgreSQL's plan-time partition pruning (partprune.c) matches against a partition
 * key; anything else (a function of the column, a sub-query, another column) pins nothing.
 */
final class Pins {

    private Pins() {
    }

    /**
     * The pin {@code conjunct} makes, if any.
     *
     * @param relationsOf the relations an expression references, as the block's scope resolves them
     */
    static Optional<Predicate.Pin> of(SqlNode conjunct, Function<SqlNode, Set<String>> relationsOf) {
        if (conjunct.getKind() == SqlKind.EQUALS) {
            SqlCall equals = (SqlCall) conjunct;
            SqlNode left = equals.operand(0);
            SqlNode right = equals.operand(1);
            if (isConstant(right)) {
                return column(left, relationsOf).map(column -> new Predicate.Pin(column, 1));
            }
            if (isConstant(left)) {
                return column(right, relationsOf).map(column -> new Predicate.Pin(column, 1));
            }
            return Optional.empty();
        }
        if (conjunct.getKind() == SqlKind.IN && ((SqlCall) conjunct).operand(1) instanceof SqlNodeList list
                && !list.isEmpty() && list.stream().allMatch(Pins::isConstant)) {
            return column(((SqlCall) conjunct).operand(0), relationsOf)
                    .map(column -> new Predicate.Pin(column, list.size()));
        }
        return Optional.empty();
    }

    private static Optional<ColumnRef> column(SqlNode node, Function<SqlNode, Set<String>> relationsOf) {
        if (!(node instanceof SqlIdentifier identifier)) {
            return Optional.empty();
        }
        Set<String> relations = relationsOf.apply(node);
        if (relations.size() != 1) {
            return Optional.empty();
        }
        return Optional.of(new ColumnRef(relations.iterator().next(),
                identifier.names.get(identifier.names.size() - 1)));
    }

    private static boolean isConstant(SqlNode node) {
        if (node instanceof SqlLiteral || node instanceof SqlDynamicParam) {
            return true;
        }
        if (node != null && (node.getKind() == SqlKind.CAST || node.getKind() == SqlKind.MINUS_PREFIX)) {
            return isConstant(((SqlCall) node).operand(0));
        }
        return false;
    }
}

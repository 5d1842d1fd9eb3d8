package io.memogate.estimator.calcite;

import java.util.ArrayDeque;
import java.util.Deque;
import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;

/**
 * A FROM clause's comma-separated items as PostgreSQL reads them. In SQL a comma binds looser than JOIN: {@code FROM
 * a JOIN b ON .., c JOIN d ON .. LEFT JOIN e ON ..} is two items, {@code a JOIN b} and {@code (c JOIN d) LEFT JOIN e}
 * (gram.y's {@code from_list} of {@code table_ref}s). Calcite's parser reads commas as one more left-associative join
 * operator instead, {@code (((a JOIN b), c) JOIN d) LEFT JOIN e}, which puts {@code a} and {@code b} under the JOINs
 * of {@code d} and {@code e}. That changes what PostgreSQL plans: {@code deconstruct_jointree} applies the collapse
 * limits to each item's JOIN tree and then to the list, so two items of 6 and 4 tables are planned as a problem of 7
 * items holding a sub-problem of 4 (two of whose LEFT-joined tables {@code remove_useless_joins} then drops), where
 * Calcite's tree gives one problem of 8; and a JOIN's range-table entry lists only its own sides' columns.
 */
final class CommaItems {

    private CommaItems() {
    }

    /**
     * {@code from} with its top-level comma joins regrouped as PostgreSQL reads them: a left-deep chain of COMMA
     * joins whose items are the JOIN trees between the commas; {@code from} itself when it needs no change.
     */
    static SqlNode regroup(SqlNode from) {
        if (!(from instanceof SqlJoin top) || !commaBelowJoin(top)) {
            return from;
        }
        // The left spine, from the first item up.
        Deque<SqlJoin> spine = new ArrayDeque<>();
        SqlNode node = top;
        while (node instanceof SqlJoin join) {
            spine.push(join);
            node = join.getLeft();
        }
        SqlNode items = null;
        SqlNode current = node;
        for (SqlJoin join : spine) {
            if (join.getJoinType() == JoinType.COMMA) {
                items = items == null ? current : comma(items, current);
                current = join.getRight();
            } else {
                current = new SqlJoin(join.getParserPosition(), current, join.isNaturalNode(), join.getJoinTypeNode(),
                        join.getRight(), join.getConditionTypeNode(), join.getCondition());
            }
        }
        return items == null ? current : comma(items, current);
    }

    /** Whether a JOIN on the left spine sits above a comma, the shape Calcite gets wrong. */
    private static boolean commaBelowJoin(SqlJoin top) {
        boolean join = false;
        SqlNode node = top;
        while (node instanceof SqlJoin j) {
            if (j.getJoinType() == JoinType.COMMA) {
                if (join) {
                    return true;
                }
            } else {
                join = true;
            }
            node = j.getLeft();
        }
        return false;
    }

    private static SqlJoin comma(SqlNode left, SqlNode right) {
        return new SqlJoin(right.getParserPosition(), left, SqlLiteral.createBoolean(false, right.getParserPosition()),
                JoinType.COMMA.symbol(right.getParserPosition()), right,
                JoinConditionType.NONE.symbol(right.getParserPosition()), null);
    }
}

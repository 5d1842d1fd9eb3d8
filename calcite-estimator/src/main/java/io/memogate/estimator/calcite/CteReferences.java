package io.memogate.estimator.calcite;

import java.util.HashMap;
import java.util.Map;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * How often each one-part name appears as a FROM item, anywhere in a query including its sub-queries:
 * PostgreSQL 12+ inlines a non-recursive CTE referenced once and materializes one referenced more often
 * (src/backend/optimizer/plan/subselect.c, SS_process_ctes). Column names are not counted.
 */
final class CteReferences extends SqlBasicVisitor<Void> {

    private final Map<String, Integer> counts = new HashMap<>();

    static Map<String, Integer> in(SqlNode... nodes) {
        CteReferences visitor = new CteReferences();
        for (SqlNode node : nodes) {
            if (node != null) {
                node.accept(visitor);
            }
        }
        return visitor.counts;
    }

    @Override
    public Void visit(SqlCall call) {
        if (call instanceof SqlSelect select && select.getFrom() != null) {
            countFromItem(select.getFrom());
        }
        for (SqlNode operand : call.getOperandList()) {
            if (operand != null) {
                operand.accept(this);
            }
        }
        return null;
    }

    private void countFromItem(SqlNode item) {
        if (item instanceof SqlIdentifier id && id.names.size() == 1) {
            counts.merge(id.names.get(0), 1, Integer::sum);
        } else if (item instanceof SqlJoin join) {
            countFromItem(join.getLeft());
            countFromItem(join.getRight());
        } else if (item instanceof SqlCall call && (call.getKind() == SqlKind.AS || call.getKind() == SqlKind.LATERAL)) {
            countFromItem(call.operand(0));
        }
    }
}

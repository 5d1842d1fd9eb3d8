package io.memogate.estimator.calcite;

import java.util.Locale;
import java.util.Set;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * Whether a select list uses aggregates or window functions, which keep PostgreSQL from pulling the
 * sub-select up ({@code is_simple_subquery}, src/backend/optimizer/prep/prepjointree.c). The parser
 * leaves most functions unresolved, so aggregates are also recognised by PostgreSQL's built-in names.
 * Does not descend into sub-queries: their aggregates are theirs.
 */
final class GroupingFinder extends SqlBasicVisitor<Void> {

    private static final Set<String> AGGREGATES = Set.of("count", "sum", "avg", "min", "max", "array_agg",
            "string_agg", "bool_and", "bool_or", "every", "bit_and", "bit_or", "json_agg", "jsonb_agg",
            "json_object_agg", "jsonb_object_agg", "stddev", "stddev_pop", "stddev_samp", "variance", "var_pop",
            "var_samp", "percentile_cont", "percentile_disc", "mode", "corr", "covar_pop", "covar_samp",
            "regr_count", "xmlagg", "any_value");

    private boolean found;

    static boolean in(SqlNode node) {
        GroupingFinder finder = new GroupingFinder();
        if (node != null) {
            node.accept(finder);
        }
        return finder.found;
    }

    @Override
    public Void visit(SqlCall call) {
        if (found || SqlKinds.isQuery(call.getKind())) {
            return null;
        }
        if (call.getKind() == SqlKind.OVER || call.getOperator().isAggregator()
                || call.getOperator() instanceof SqlFunction f
                        && AGGREGATES.contains(f.getName().toLowerCase(Locale.ROOT))) {
            found = true;
            return null;
        }
        for (SqlNode operand : call.getOperandList()) {
            if (operand != null) {
                operand.accept(this);
            }
        }
        return null;
    }
}

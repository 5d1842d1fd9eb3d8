package io.memogate.estimator.calcite;

import org.apache.calcite.sql.SqlKind;

/** Which SqlKinds start a query of their own (a sub-select wherever it appears). */
final class SqlKinds {

    private SqlKinds() {
    }

    static boolean isQuery(SqlKind kind) {
        return switch (kind) {
            case SELECT, ORDER_BY, WITH, UNION, INTERSECT, EXCEPT, VALUES, EXPLICIT_TABLE -> true;
            default -> false;
        };
    }
}

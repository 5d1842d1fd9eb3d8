package io.memogate.estimator.calcite;

import io.memogate.estimator.planner.JoinTreeNode.RelationRef;
import org.apache.calcite.sql.SqlWithItem;

/**
 * A CTE in scope while its statement is built: its definition, whether PostgreSQL plans it apart (materialized),
 * and once it is, the relation that stands for its result.
 */
final class Cte {
    final SqlWithItem item;
    final boolean separate;
    RelationRef planned;

    Cte(SqlWithItem item, boolean separate) {
        this.item = item;
        this.separate = separate;
    }
}

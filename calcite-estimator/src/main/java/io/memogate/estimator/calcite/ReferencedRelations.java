package io.memogate.estimator.calcite;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * The relations an expression (a conjunct, a select item) references in its own SELECT and the ones
 * around it. Does not descend into sub-queries: PostgreSQL plans each as a sub-plan of its own unless it
 * is pulled up, which the builder decides before calling this; they go to {@code subQueries}.
 */
final class ReferencedRelations extends SqlBasicVisitor<Void> {

    private final Scope scope;
    private final Consumer<SqlNode> subQueries;
    private final Set<String> relations = new LinkedHashSet<>();

    private ReferencedRelations(Scope scope, Consumer<SqlNode> subQueries) {
        this.scope = scope;
        this.subQueries = subQueries;
    }

    static Set<String> of(SqlNode expression, Scope scope, Consumer<SqlNode> subQueries) {
        ReferencedRelations visitor = new ReferencedRelations(scope, subQueries);
        if (expression != null) {
            expression.accept(visitor);
        }
        return visitor.relations;
    }

    @Override
    public Void visit(SqlCall call) {
        if (SqlKinds.isQuery(call.getKind())) {
            subQueries.accept(call);
            return null;
        }
        for (SqlNode operand : call.getOperandList()) {
            if (operand != null) {
                operand.accept(this);
            }
        }
        return null;
    }

    @Override
    public Void visit(SqlIdentifier id) {
        relations.addAll(scope.resolve(id));
        return null;
    }
}

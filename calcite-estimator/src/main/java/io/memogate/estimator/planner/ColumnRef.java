package io.memogate.estimator.planner;

import java.util.Objects;

/** A column of a relation, named as in {@link JoinTreeNode.RelationRef#name()}. */
public record ColumnRef(String relation, String column) {
    public ColumnRef {
        Objects.requireNonNull(relation, "relation");
        Objects.requireNonNull(column, "column");
    }
}

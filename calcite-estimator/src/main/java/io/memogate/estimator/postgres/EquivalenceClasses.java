package io.memogate.estimator.postgres;

import io.memogate.estimator.planner.ColumnRef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Union-find over columns, as PostgreSQL merges {@code a.x = b.y} conjuncts into equivalence classes
 * (src/backend/optimizer/path/equivclass.c); each class's columns come out at the end.
 */
final class EquivalenceClasses {
    private final Map<ColumnRef, ColumnRef> parent = new HashMap<>();

    void merge(ColumnRef a, ColumnRef b) {
        parent.put(find(a), find(b));
    }

    /** The column that stands for {@code column}'s class; the column itself when it is in none. */
    ColumnRef find(ColumnRef column) {
        parent.putIfAbsent(column, column);
        ColumnRef root = column;
        while (!parent.get(root).equals(root)) {
            root = parent.get(root);
        }
        return root;
    }

    /** Each class's columns. */
    List<List<ColumnRef>> members() {
        Map<ColumnRef, List<ColumnRef>> byRoot = new HashMap<>();
        for (ColumnRef column : List.copyOf(parent.keySet())) {
            byRoot.computeIfAbsent(find(column), root -> new ArrayList<>()).add(column);
        }
        return List.copyOf(byRoot.values());
    }
}

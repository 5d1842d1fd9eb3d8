package io.memogate.estimator.postgres;

import io.memogate.estimator.planner.ColumnRef;
import io.memogate.estimator.planner.Predicate;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;

/**
 * The columns of one block pinned to constants. A column equal to one constant puts the constant into its
 * equivalence class, and PostgreSQL then derives it for every member ({@code a.id = b.id AND a.id = 5} gives
 * {@code b.id = 5}, which prunes {@code b}'s partitions too) and builds no join clause from that class (a class
 * holding a constant needs no further enforcement: {@code generate_join_implied_equalities}). A list of
 * constants ({@code IN (...)}, a ScalarArrayOpExpr) never enters a class: it pins its own column only.
 */
final class PinnedColumns {

    private final EquivalenceClasses classes = new EquivalenceClasses();
    private final Set<ColumnRef> constantClasses = new HashSet<>();
    private final Map<ColumnRef, Integer> lists = new HashMap<>();

    PinnedColumns(List<Predicate> predicates) {
        for (Predicate predicate : predicates) {
            if (predicate instanceof Predicate.Equality equality) {
                classes.merge(folded(equality.left()), folded(equality.right()));
            }
        }
        for (Predicate predicate : predicates) {
            if (predicate instanceof Predicate.Pin pin) {
                ColumnRef column = folded(pin.column());
                if (pin.values() == 1) {
                    constantClasses.add(classes.find(column));
                } else {
                    lists.merge(column, pin.values(), Math::min);
                }
            }
        }
    }

    /** How many values {@code relation}'s {@code column} is pinned to; empty when it is not. */
    OptionalInt values(String relation, String column) {
        if (constantClasses.isEmpty() && lists.isEmpty()) {
            return OptionalInt.empty();
        }
        ColumnRef ref = folded(new ColumnRef(relation, column));
        if (constantClasses.contains(classes.find(ref))) {
            return OptionalInt.of(1);
        }
        Integer values = lists.get(ref);
        return values == null ? OptionalInt.empty() : OptionalInt.of(values);
    }

    /** Whether {@code column}'s equivalence class holds a constant, and so joins nothing. */
    boolean constant(ColumnRef column) {
        return !constantClasses.isEmpty() && constantClasses.contains(classes.find(folded(column)));
    }

    private static ColumnRef folded(ColumnRef column) {
        return new ColumnRef(column.relation(), column.column().toLowerCase(Locale.ROOT));
    }
}

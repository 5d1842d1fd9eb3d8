package io.memogate.estimator.planner;

import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One AND-ed conjunct of a WHERE or JOIN ... ON condition, reduced to what the join search needs: which
 * relations it references. A conjunct over two or more relations of one problem is a join clause.
 */
public sealed interface Predicate {

    /** The relations the conjunct references; names not in the block (outer references) are ignored. */
    Set<String> relations();

    /**
     * Any other conjunct over its relations. An {@code equality} ({@code a.x + b.y = c.z}, an outer
     * join's ON equality between expressions) is a join clause that merge and hash joins can use; anything else
     * ({@code a.x < b.y}, {@code f(a.x, b.y, c.z)}, an OR of several relations' columns) only filters
     * the join and so adds pairs but no join paths.
     */
    record Clause(Set<String> relations, boolean equality) implements Predicate {
        public Clause {
            relations = Set.copyOf(relations);
        }

        /** An equality over these relations, as a plain join condition is. */
        public static Clause of(String... relations) {
            return new Clause(Set.of(relations), true);
        }

        /** A conjunct that is not an equality. */
        public static Clause filter(Set<String> relations) {
            return new Clause(relations, false);
        }
    }

    /**
     * {@code left = right} between two columns, which PostgreSQL merges into an equivalence class
     * (src/backend/optimizer/path/equivclass.c): {@code a.x = b.y AND b.y = c.z} also links {@code a}
     * and {@code c}. Only for a WHERE conjunct or an inner join's ON conjunct; the ON conjunct of an
     * outer join is an {@link OuterJoinEquality}.
     */
    record Equality(ColumnRef left, ColumnRef right) implements Predicate {
        public Equality {
            Objects.requireNonNull(left, "left");
            Objects.requireNonNull(right, "right");
        }

        @Override
        public Set<String> relations() {
            return Set.copyOf(List.of(left.relation(), right.relation()));
        }
    }

    /**
     * {@code left = right} between two columns in an outer join's ON condition. While the join stays outer it joins
     * no equivalence class: it is a join clause between its two relations, as an equality {@link Clause} is. When
     * {@code reduce_outer_joins} (src/backend/optimizer/prep/prepjointree.c) makes the join inner, because a strict
     * condition above it reads the nullable side, PostgreSQL distributes it as an inner join's conjunct and it merges
     * into the classes like an {@link Equality}: {@code a LEFT JOIN b ON a.x = b.x JOIN c ON b.x = c.x} joins
     * {@code a} with {@code c} too ({@link #columns}). Only the planner model knows which joins are made inner.
     */
    record OuterJoinEquality(Equality columns) implements Predicate {
        public OuterJoinEquality {
            Objects.requireNonNull(columns, "columns");
        }

        public OuterJoinEquality(ColumnRef left, ColumnRef right) {
            this(new Equality(left, right));
        }

        @Override
        public Set<String> relations() {
            return columns.relations();
        }
    }

    /**
     * {@code column = <constant>} or {@code column IN (<constants>)}: the column can hold at most {@code values}
     * values in the result. It joins nothing; the planner prunes a partitioned table by it, and an equivalence
     * class carries it to every column equal to this one ({@code a.id = b.id AND a.id = 5} prunes {@code b}).
     * Parameters count as constants: a custom plan is made with their values, and PostgreSQL plans the first
     * executions of a prepared statement that way.
     */
    record Pin(ColumnRef column, int values) implements Predicate {
        public Pin {
            Objects.requireNonNull(column, "column");
            if (values < 1) {
                throw new IllegalArgumentException("values must be >= 1, was " + values);
            }
        }

        @Override
        public Set<String> relations() {
            return Set.of(column.relation());
        }
    }
}

package io.memogate.estimator.planner;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One query block's FROM clause as PostgreSQL's parser leaves it (a {@code FromExpr} of
 * {@code JoinExpr}s and {@code RangeTblRef}s, src/include/nodes/primnodes.h), with the sub-selects that
 * the planner would pull up already marked. Builders (a Calcite visitor, a test) decide what PostgreSQL
 * pulls up, because that depends on the sub-select, not on the FROM clause:
 * <ul>
 *   <li>a FROM sub-select or an inlined CTE that {@code is_simple_subquery} accepts (no aggregates,
 *   grouping, window functions, LIMIT, DISTINCT, set operations, ...) is a {@code SubqueryRef} with
 *   {@code pulledUp = true};
 *   <li>an uncorrelated {@code x IN (SELECT ...)}, or a possibly correlated {@code EXISTS} or
 *   {@code NOT EXISTS}, AND-ed at the top of WHERE or of an ON condition becomes
 *   {@code JoinNode(SEMI or ANTI, <the join tree so far>, SubqueryRef(..., true))}, as
 *   {@code convert_ANY_sublink_to_join} and {@code convert_EXISTS_sublink_to_join} put the existing
 *   tree on the left;
 *   <li>everything else PostgreSQL plans on its own: a FROM sub-select that is not pulled up is a
 *   {@code SubqueryRef} with {@code pulledUp = false} (one relation here, its own problems elsewhere);
 *   scalar sub-selects, sub-links that stay sub-plans, set-operation branches and materialized CTEs
 *   go to {@link QueryBlock#separatelyPlanned()}, with a {@code RelationRef} named after the CTE where
 *   one is scanned.
 * </ul>
 * Relation names are the names the block's predicates use (aliases where given), unique within the
 * block after pull-up; a builder renames a pulled-up sub-select's relations that clash with the outer
 * block's. (A name that is not unique links every relation bearing it, see PostgreSQL's {@code ProblemGraphs}.)
 */
public sealed interface JoinTreeNode {

    /**
     * A table, function or CTE scan: one relation. A view is a sub-select once PostgreSQL's rewriter
     * has expanded it; a builder that cannot see its definition can only make it one relation, which
     * under-counts the joins inside it.
     *
     * @param table the table's name (unqualified) when it is a table, which has access paths to choose from
     *     (sequential, index and bitmap scans, {@link IndexedColumns}); empty for a CTE, function or VALUES
     *     scan, which has one ({@link JoinSearch#singlePathItems()})
     */
    record RelationRef(String name, Optional<String> table) implements JoinTreeNode {
        public RelationRef {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(table, "table");
        }

        /** A table (or view) of that name: the relation a builder cannot tell apart is taken for one. */
        public RelationRef(String name) {
            this(name, Optional.of(name));
        }
    }

    /**
     * {@code left <type> JOIN right}, written with JOIN syntax or made from a sub-link.
     *
     * @param on the join's own conditions (ON, USING, or what a sub-link becomes), also among the block's
     *     predicates: which relations an outer or semi join needs on each side, and so how far PostgreSQL may
     *     reorder it, depends on them ({@code make_outerjoininfo}); empty when unknown
     */
    record JoinNode(JoinType type, JoinTreeNode left, JoinTreeNode right, List<Predicate> on)
            implements JoinTreeNode {
        public JoinNode {
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(left, "left");
            Objects.requireNonNull(right, "right");
            on = List.copyOf(on);
        }

        /** A join whose conditions are not known apart from the block's. */
        public JoinNode(JoinType type, JoinTreeNode left, JoinTreeNode right) {
            this(type, left, right, List.of());
        }
    }

    /** A comma-separated FROM list (possibly empty: {@code SELECT 1}). */
    record FromList(List<JoinTreeNode> items) implements JoinTreeNode {
        public FromList {
            items = List.copyOf(items);
        }

        public static FromList of(JoinTreeNode... items) {
            return new FromList(List.of(items));
        }
    }

    /**
     * A sub-select in FROM (or a CTE reference). Pulled up, its FROM replaces this node and its
     * predicates and separately planned blocks join the outer block's; otherwise it is the single
     * relation {@code alias} here and {@code block} is planned separately.
     *
     * @param rangeEntry whether the sub-select is a range-table entry of its own, as a FROM sub-select, a CTE's or
     *     an IN's is, which {@code pull_up_simple_subquery} pulls up; false for the body of an EXISTS, whose FROM
     *     {@code convert_EXISTS_sublink_to_join} merges into the block directly
     */
    record SubqueryRef(String alias, QueryBlock block, boolean pulledUp, boolean rangeEntry) implements JoinTreeNode {
        public SubqueryRef {
            Objects.requireNonNull(alias, "alias");
            Objects.requireNonNull(block, "block");
        }

        /** A range-table entry of its own. */
        public SubqueryRef(String alias, QueryBlock block, boolean pulledUp) {
            this(alias, block, pulledUp, true);
        }
    }
}

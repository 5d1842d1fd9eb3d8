package io.memogate.estimator.postgres;

import io.memogate.estimator.planner.JoinTreeNode;
import io.memogate.estimator.planner.JoinType;

/**
 * How much of a block's query tree PostgreSQL copies before planning it, counted as the relations beneath each
 * JOIN it writes ({@code copiedJoinRelations} of {@link io.memogate.estimator.planner.PlannerWork}).
 *
 * <p>Every query level but the statement's own is planned from a copy: a FROM sub-select or a LATERAL one that
 * is not pulled up ({@code set_subquery_pathlist}), a sub-plan ({@code make_subplan}), a materialized CTE
 * ({@code SS_process_ctes}), a branch of a UNION ALL pulled up into an append relation; so are the sub-selects pulled up into a block
 * ({@code pull_up_simple_subquery}, {@code convert_EXISTS_sublink_to_join}, src/backend/optimizer/prep/
 * prepjointree.c and subselect.c). The parser gives each JOIN a range-table entry listing every column of both
 * its sides ({@code joinaliasvars} and its alias names), so a left-deep chain of {@code n} tables joined with
 * JOIN ... ON copies about {@code n²/2} tables' worth of columns; comma joins and pulled-up sub-links have no
 * such entry. The statement's own tree is planned in place and not counted, and so are the branches of its UNION,
 * INTERSECT or EXCEPT ({@code recurse_set_operations}, src/backend/optimizer/prep/prepunion.c, plans each leaf's
 * sub-query as it stands, then sorts or hashes the result): two chains of 8 tables joined with JOIN ... ON (254 kB
 * each alone) used 546 kB as a UNION, 547 kB as an INTERSECT or an EXCEPT, but 867 kB as a UNION ALL and 777 kB as
 * a UNION in a FROM sub-select, which is copied whole (PostgreSQL 18.6, 2,000-row tables of 18 columns). A tree
 * that mixes UNION ALL with the others is not pulled up and plans in place too (811 kB for three chains against
 * 813 kB as UNION throughout and 1,240 kB as UNION ALL throughout).
 */
final class CopiedJoins {

    /** The weight of a block's JOIN relations when it is planned in place: nothing is copied. */
    static final double IN_PLACE = 0;

    /** When it is planned from one copy: a FROM sub-select, a sub-plan, a CTE, a branch of a copied set operation. */
    static final double COPIED = 1;

    /**
     * When it is a branch of a UNION ALL pulled up into an append relation: {@code pull_up_simple_union_all} copies
     * the branches' range tables before {@code set_subquery_pathlist} copies each branch again to plan it, so a
     * relation costs more than in a sub-select. Two chains of {@code n} tables joined with JOIN ... ON under
     * {@code count(*)} (2,000-row tables of 18 columns, PostgreSQL 18.6) used, as a UNION ALL rather than a UNION,
     * 25, 94, 192 and 329 kB more for {@code n} = 2, 4, 6 and 8, the same chains written as comma joins 8, 18, 29
     * and 40 kB more: what the JOINs add is 17, 76, 163 and 289 kB for 4, 18, 40 and 70 relations, 4.1-4.3 kB each
     * against 3.3 for a sub-select's ({@code bytesPerCopiedJoinRelation}).
     */
    static final double UNION_ALL_BRANCH = 1.25;

    /**
     * Each relation of a pulled-up UNION ALL branch, those of the EXISTS and IN sub-selects it pulls up included, on
     * top of its JOINs' ({@link #UNION_ALL_BRANCH}): copying the branch twice also copies its relations' range-table
     * entries, whose column names list every column, and its conditions. Two chains of {@code n} tables written as
     * comma joins used 8, 18, 29 and 40 kB more as a UNION ALL than as a UNION for {@code n} = 2, 4, 6 and 8, 2.0-2.5
     * kB a relation; with a correlated EXISTS over one table in each chain of 4, 8 kB more than without, over two
     * tables joined with JOIN ... ON 31 kB (PostgreSQL 18.6, 2,000-row tables of 18 columns). As a weight of
     * {@code bytesPerCopiedJoinRelation} (3.3 kB): 0.7.
     */
    static final double UNION_ALL_BRANCH_RELATION = 0.7;

    /**
     * What {@code pull_up_simple_subquery} (src/backend/optimizer/prep/prepjointree.c) costs, in relations of a
     * copy, for each sub-select it pulls up: besides copying the sub-select (counted by {@link #ofStatement}), it
     * rewrites the {@code joinaliasvars} of every JOIN range-table entry of the level it pulls into, copying them,
     * and the level's quals. The same IN over one table ({@code t.k3 IN (SELECT u.k0 FROM u)}) cost more than its
     * correlated EXISTS, which merges its FROM without a sub-select entry, by 18, 34 and 57 kB beneath a chain of
     * 4, 6 and 8 tables joined with JOIN ... ON (9, 20 and 35 relations beneath its JOINs; 2,000-row tables of 18
     * columns, PostgreSQL 18.6): 1.5 kB a relation beneath the level's JOINs, and 3-5 kB for the pull-up itself.
     * As weights of {@code bytesPerCopiedJoinRelation} (3.3 kB): 0.45 a relation, 1 a pull-up.
     */
    static final double PULL_UP = 1;

    /** See {@link #PULL_UP}. */
    static final double PULL_UP_PER_JOIN_RELATION = 0.45;

    private CopiedJoins() {
    }

    /**
     * The cost of the sub-selects pulled up into a block whose FROM is {@code from}, and of those pulled up into
     * them, as weighted relations of a copy ({@link #PULL_UP}): each against the relations beneath the JOINs of the
     * level it is pulled into, the block's own and those of the other sub-selects and EXISTS bodies merged into it.
     */
    static double ofPullUps(JoinTreeNode from) {
        return pullUps(from, joins(from, true));
    }

    private static double pullUps(JoinTreeNode node, int level) {
        return switch (node) {
            case JoinTreeNode.RelationRef ignored -> 0;
            case JoinTreeNode.FromList list -> list.items().stream().mapToDouble(item -> pullUps(item, level)).sum();
            case JoinTreeNode.JoinNode join -> pullUps(join.left(), level) + pullUps(join.right(), level);
            case JoinTreeNode.SubqueryRef sub when !sub.pulledUp() -> 0;
            case JoinTreeNode.SubqueryRef sub when !sub.rangeEntry() -> pullUps(sub.block().from(), level);
            case JoinTreeNode.SubqueryRef sub -> {
                // Its own JOINs join the level only once it is pulled up, after its own sub-selects were.
                int own = joins(sub.block().from(), true);
                yield PULL_UP + PULL_UP_PER_JOIN_RELATION * (level - own) + ofPullUps(sub.block().from());
            }
        };
    }

    /** For a pulled-up UNION ALL branch: its relations, pulled-up sub-selects' included, weighed as copied. */
    static double ofUnionAllBranch(JoinTreeNode from) {
        return UNION_ALL_BRANCH_RELATION * relations(from);
    }

    /** For a block planned from a copy: the relations beneath each of its JOINs, pulled-up sub-selects' included. */
    static int ofCopiedBlock(JoinTreeNode from) {
        return joins(from, true);
    }

    /** For the statement's own block: only what its pulled-up sub-selects and sub-links bring, copied to be pulled up. */
    static int ofStatement(JoinTreeNode from) {
        return joins(from, false);
    }

    /** The relations beneath each JOIN of {@code node}, counting only inside a copy unless {@code copied}. */
    private static int joins(JoinTreeNode node, boolean copied) {
        return switch (node) {
            case JoinTreeNode.RelationRef ignored -> 0;
            case JoinTreeNode.SubqueryRef sub -> sub.pulledUp() ? joins(sub.block().from(), true) : 0;
            case JoinTreeNode.FromList list -> list.items().stream().mapToInt(item -> joins(item, copied)).sum();
            case JoinTreeNode.JoinNode join -> {
                boolean subLink = join.type() == JoinType.SEMI || join.type() == JoinType.ANTI;
                int own = copied && !subLink ? relations(join) : 0;
                yield own + joins(join.left(), copied) + joins(join.right(), copied || subLink);
            }
        };
    }

    /** Relations beneath {@code node} as its range-table entries see them: a sub-select left whole is one. */
    private static int relations(JoinTreeNode node) {
        return switch (node) {
            case JoinTreeNode.RelationRef ignored -> 1;
            case JoinTreeNode.SubqueryRef sub -> sub.pulledUp() ? relations(sub.block().from()) : 1;
            case JoinTreeNode.FromList list -> list.items().stream().mapToInt(CopiedJoins::relations).sum();
            case JoinTreeNode.JoinNode join -> relations(join.left()) + relations(join.right());
        };
    }
}

package io.memogate.estimator.planner;

import io.memogate.estimator.graph.JoinGraph;
import io.memogate.estimator.graph.MemoSize;
import java.util.Objects;

/**
 * One join search problem PostgreSQL solves: a list of items (base relations, or sub-problems already
 * joined) to be joined in the best order, by {@code standard_join_search} or {@code geqo}
 * ({@code make_rel_from_joinlist}, src/backend/optimizer/path/allpaths.c).
 */
public sealed interface JoinSearch {

    /** The items (vertices) and the clauses linking them. */
    JoinGraph graph();

    /** Number of items; PostgreSQL's {@code levels_needed}. */
    default int relations() {
        return graph().size();
    }

    /** Join relations (one per {@code make_join_rel} call) whose paths are held in memory at the peak. */
    double joinPairs();

    /**
     * Join clauses linking the two sides of a join relation beyond the first, summed over the join
     * relations: each one more mergejoinable clause, and so more merge-join paths and pathkeys
     * ({@code sort_inner_and_outer}, {@code match_unsorted_outer} in src/backend/optimizer/path/
     * joinpath.c). See {@link MemoSize#extraClauses()}.
     */
    double extraJoinClauses();

    /**
     * How many of {@link #joinPairs()} no clause links: Cartesian products, which only a nested loop joins
     * and so keep far fewer paths ({@link MemoSize#cartesianPairs()}).
     */
    double cartesianPairs();

    /**
     * Parameterized path families the search's pairs build join paths for: per pair, the relations outside
     * its join relation that an index scan inside it can be parameterized by
     * ({@link MemoSize#parameterizations()}); 0 without a catalog.
     */
    double parameterizations();

    /** Whether {@link #joinPairs()} is a count rather than an extrapolation. */
    boolean exact();

    /**
     * Whether the search is planned for its first rows (a tuple fraction below 1: LIMIT, FETCH FIRST,
     * a cursor), so that every relation also keeps the paths that are cheapest to start
     * ({@code consider_startup}, src/backend/optimizer/util/pathnode.c).
     */
    boolean fastStart();

    /**
     * Items with a single access path: CTE, function and sub-select scans. A search planned for its first
     * rows keeps, beside each join relation's cheapest paths, those cheapest to start, and those come from
     * the base relations' alternatives (index scans that start at once or return rows in order); a
     * problem made mostly of scans that have one path has few such alternatives to keep. Tables and
     * sub-problems are not counted.
     */
    int singlePathItems();

    /**
     * Linked pairs whose join relation holds a sub-problem's result: an item that is itself a join, left
     * whole by a collapse limit ({@code join_collapse_limit}, {@code from_collapse_limit}) and planned
     * first. Such an item brings every path its own search kept (sorted orders, those cheap to start,
     * parameterized ones), and planned for the first rows each is tried as a nested loop's outer against
     * every parameterized inner, with a Memoize path each (bench/log/accuracy.md, "Where first-rows planning
     * spends its memory"). 0 for a search of base relations only, and for GEQO.
     */
    double subProblemPairs();

    /**
     * Exhaustive dynamic programming: every csg-cmp pair is built and kept until planning ends.
     *
     * @param subProblemPairs see {@link JoinSearch#subProblemPairs()}
     */
    record DynamicProgramming(JoinGraph graph, MemoSize memo, boolean fastStart, int singlePathItems,
                              double subProblemPairs) implements JoinSearch {
        public DynamicProgramming {
            Objects.requireNonNull(graph, "graph");
            Objects.requireNonNull(memo, "memo");
        }

        @Override
        public double joinPairs() {
            return memo.pairs();
        }

        @Override
        public double extraJoinClauses() {
            return memo.extraClauses();
        }

        @Override
        public double cartesianPairs() {
            return memo.cartesianPairs();
        }

        @Override
        public double parameterizations() {
            return memo.parameterizations();
        }

        @Override
        public boolean exact() {
            return memo.exact();
        }
    }

    /**
     * The genetic optimizer (src/backend/optimizer/geqo): it evaluates {@code poolSize} random join
     * orders, then one new order per generation. Each evaluation builds one join tree of
     * {@code relations - 1} joins in a memory context that {@code geqo_eval} deletes afterwards, and the
     * best order is rebuilt at the end in the planner's own context. Its memory is therefore about two
     * trees' join relations plus the pool ({@code poolSize} chromosomes of {@code relations} genes)
     * however many generations run; the generations are its time.
     */
    record Geqo(JoinGraph graph, int poolSize, int generations, boolean fastStart, int singlePathItems)
            implements JoinSearch {
        public Geqo {
            Objects.requireNonNull(graph, "graph");
            if (poolSize < 2 || generations < 1) {
                throw new IllegalArgumentException(
                        "GEQO needs a pool of >= 2 and >= 1 generation, was " + poolSize + " and " + generations);
            }
        }

        /** Join orders evaluated: the initial pool, then one child per generation. */
        public long evaluations() {
            return (long) poolSize + generations;
        }

        @Override
        public double joinPairs() {
            return 2.0 * Math.max(0, relations() - 1);
        }

        /** Not modelled: two trees' join relations are little beside the pool, whatever their clauses. */
        @Override
        public double extraJoinClauses() {
            return 0;
        }

        /** Not modelled: a GEQO tree's joins are counted as linked pairs, the dearer kind. */
        @Override
        public double cartesianPairs() {
            return 0;
        }

        /** Not modelled: two trees' relations are little beside the pool, whatever their paths. */
        @Override
        public double parameterizations() {
            return 0;
        }

        /** Not modelled, like the parameterizations. */
        @Override
        public double subProblemPairs() {
            return 0;
        }

        @Override
        public boolean exact() {
            return true;
        }
    }
}

package io.memogate.estimator.planner;

import io.memogate.estimator.graph.JoinGraph;
import io.memogate.estimator.graph.MemoSize;
import java.util.Objects;

/**
 * One join search problem a server's planner solves: a list of items (base relations, or sub-problems already
 * joined) to be joined in the best order. PostgreSQL's by {@code standard_join_search} or {@code geqo}
 * ({@code make_rel_from_joinlist}, src/backend/optimizer/path/allpaths.c); MySQL's and MariaDB's by
 * {@link Greedy greedy search}; SQL Server's by its {@link Cascades} optimizer. What a server's search does not
 * keep (Cartesian pairs apart, parameterized paths, paths for the first rows, sub-problems' paths) is 0 unless its
 * search says otherwise.
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
     * Over the join relations, the square of the join clauses linking their two sides less one
     * ({@link MemoSize#crossingSquares()}): each clause leads a merge join of its own, and each carries the
     * list of the pair's clauses. 0 where the search does not model it.
     */
    default double crossingSquares() {
        return 0;
    }

    /**
     * How many of {@link #joinPairs()} no clause links: Cartesian products, which only a nested loop joins
     * and so keep far fewer paths ({@link MemoSize#cartesianPairs()}).
     */
    default double cartesianPairs() {
        return 0;
    }

    /**
     * Parameterized path families the search's pairs build join paths for: per pair, the relations outside
     * its join relation that an index scan inside it can be parameterized by
     * ({@link MemoSize#parameterizations()}); 0 without a catalog.
     */
    default double parameterizations() {
        return 0;
    }

    /**
     * The join relations {@link #joinPairs()} make ({@link MemoSize#joinRelations()}): the first pair to make one
     * creates it, the others add paths to it. 0 where the search does not model it.
     */
    default double joinRelations() {
        return 0;
    }

    /** Whether {@link #joinPairs()} is a count rather than an extrapolation. */
    boolean exact();

    /**
     * Seconds of the server's CPU the search is predicted to take, where the dialect models the time
     * (MySQL, MariaDB: {@link Greedy}); 0 where only memory is modelled.
     */
    default double predictedSeconds() {
        return 0;
    }

    /**
     * Whether the search is planned for its first rows (a tuple fraction below 1: LIMIT, FETCH FIRST,
     * a cursor), so that every relation also keeps the paths that are cheapest to start
     * ({@code consider_startup}, src/backend/optimizer/util/pathnode.c).
     */
    default boolean fastStart() {
        return false;
    }

    /**
     * Items with a single access path: CTE, function and sub-select scans. A search planned for its first
     * rows keeps, beside each join relation's cheapest paths, those cheapest to start, and those come from
     * the base relations' alternatives (index scans that start at once or return rows in order); a
     * problem made mostly of scans that have one path has few such alternatives to keep. Tables and
     * sub-problems are not counted.
     */
    default int singlePathItems() {
        return 0;
    }

    /**
     * Linked pairs whose join relation holds a sub-problem's result: an item that is itself a join, left
     * whole by a collapse limit ({@code join_collapse_limit}, {@code from_collapse_limit}) and planned
     * first. Such an item brings every path its own search kept (sorted orders, those cheap to start,
     * parameterized ones), and planned for the first rows each is tried as a nested loop's outer against
     * every parameterized inner, with a Memoize path each (bench/log/accuracy.md, "Where first-rows planning
     * spends its memory"). 0 for a search of base relations only, and for GEQO.
     */
    default double subProblemPairs() {
        return 0;
    }

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
        public double crossingSquares() {
            return memo.crossingSquares();
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
        public double joinRelations() {
            return memo.joinRelations();
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

        /** The best order's tree, rebuilt at the end in the planner's own context: one relation per join. */
        @Override
        public double joinRelations() {
            return Math.max(0, relations() - 1);
        }

        @Override
        public boolean exact() {
            return true;
        }
    }

    /**
     * MySQL's and MariaDB's join order search ({@code greedy_search} and
     * {@code best_extension_by_limited_search}, sql/sql_select.cc): a depth-first search of join orders up to
     * {@code depth} tables deep, after which the first table of the best order found is fixed and the search
     * runs again over the rest. It keeps only the partial plan it extends and the best one so far, so its memory
     * does not grow with the orders it tries; its time does, with {@code partialPlans}. Its memory grows with
     * the tables and the join conditions instead: each equality is kept as a possible key lookup from either
     * side ({@code KEYUSE}), so {@link #extraJoinClauses()} here is the number of linked pairs of the graph.
     * Columns made equal to one another by its equalities form one multiple equality ({@code Item_equal}), and
     * its memory grows with the cube of such a class: measured on MariaDB 10.11, a chain of 24 tables joined on
     * one column (a single class of 24) took 1.8 MB where the same chain joined column to key (24 classes of
     * two) took 0.37 MB; a 48-table chain on one column 13.2 MB (bench/log/mysql-optimizer.md).
     *
     * @param depth optimizer_search_depth as the server applies it to this search (62: exhaustive)
     * @param pruneLevel optimizer_prune_level: 0 tries every extension the cost bound leaves, 1 and 2 keep
     *     only the promising ones
     * @param partialPlans partial join orders the search is predicted to evaluate
     * @param exact false when the count stopped at its budget: at least {@code partialPlans}
     * @param predictedSeconds the time the server is predicted to spend on them
     * @param equalityClassCubes over the classes of columns the search's equalities make equal, the square of a
     *     class's columns times the tables they belong to: the cube of its size where each table brings one column
     */
    record Greedy(JoinGraph graph, int depth, int pruneLevel, double partialPlans, boolean exact,
                  double predictedSeconds, double equalityClassCubes) implements JoinSearch {
        public Greedy {
            Objects.requireNonNull(graph, "graph");
            if (depth < 1 || pruneLevel < 0 || partialPlans < 0 || predictedSeconds < 0 || equalityClassCubes < 0) {
                throw new IllegalArgumentException("a greedy search needs depth >= 1, prune level, plans, seconds and"
                        + " class cubes >= 0, were " + depth + ", " + pruneLevel + ", " + partialPlans + ", "
                        + predictedSeconds + ", " + equalityClassCubes);
            }
        }

        /** The joins of the partial plan being extended: all the search holds at once. */
        @Override
        public double joinPairs() {
            return Math.max(0, relations() - 1);
        }

        @Override
        public double extraJoinClauses() {
            return graph.edgeCount();
        }
    }

    /**
     * SQL Server's Cascades search (the Volcano/Cascades memo of its optimizer): it explores join alternatives
     * (orders and commutations, each a group expression in the memo) in stages, and stops at the end of its
     * task budget ("TimeOut" in a showplan's StatementOptmEarlyAbortReason) or when a plan is cheap enough
     * ("GoodEnoughPlanFound"). Everything it explored stays in the memo until the statement is compiled, so its
     * memory grows with the alternatives explored: with the join pairs of the graph (the csg-cmp pairs an
     * exhaustive search builds), up to the budget, and no further. {@link #joinPairs()} is what was explored.
     *
     * @param alternatives join pairs an exhaustive search of the graph builds (its csg-cmp pairs)
     * @param explored those within the task budget: the memo the search ends with
     * @param exact false when {@code alternatives} is an extrapolation
     */
    record Cascades(JoinGraph graph, double alternatives, double explored, boolean exact) implements JoinSearch {
        public Cascades {
            Objects.requireNonNull(graph, "graph");
            if (!(explored >= 0) || explored > alternatives) {
                throw new IllegalArgumentException("a Cascades search explores between 0 and its " + alternatives
                        + " alternatives, was " + explored);
            }
        }

        /** Whether the task budget ended the search before it built every alternative (a showplan's TimeOut). */
        public boolean timedOut() {
            return explored < alternatives;
        }

        @Override
        public double joinPairs() {
            return explored;
        }

        /** Not modelled: the memo's group expressions are counted as explored pairs. */
        @Override
        public double extraJoinClauses() {
            return 0;
        }
    }
}

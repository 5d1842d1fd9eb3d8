package io.memogate.estimator.graph;

/**
 * The size of a dynamic-programming join search's memo, as the number of csg-cmp pairs: the pairs of
 * disjoint connected relation sets, linked by a join clause, that the optimizer combines (Moerkotte &amp;
 * Neumann, VLDB 2006, section 2). PostgreSQL calls {@code make_join_rel} once per such pair, and each
 * call leaves its join relation and paths in the planner's memory until planning ends.
 *
 * <p>How many of those paths it keeps grows with the join clauses between the two sides. For every
 * pair {@code sort_inner_and_outer} and {@code match_unsorted_outer} (src/backend/optimizer/path/
 * joinpath.c) try a merge join per ordering of the mergejoinable clauses and keep paths per useful
 * pathkey, and each equivalence class with members on both sides is a potential pathkey; a class gives
 * one clause per pair however many of its members lie on each side ({@code generate_join_implied_equalities}).
 * A pair's <em>crossings</em> are therefore the distinct classes, and other equalities, with relations
 * on both sides; {@code extraClauses} sums what they add beyond the first, {@code crossingSquares} what their
 * square adds beyond a single clause's. The square is what PostgreSQL's memory follows: each of a pair's
 * {@code c} mergejoinable clauses leads a merge join of its own ({@code select_outer_pathkeys_for_merge},
 * {@code find_mergeclauses_for_outer_pathkeys}), and each of those carries its list of the pair's clauses,
 * so the paths and lists grow with {@code c^2}. Join filters (clauses no merge or hash join can use,
 * {@link JoinGraph}) make pairs but are not crossings.
 *
 * <p>A Cartesian pair (of a disconnected graph: no clause of any kind links its sides) can only be
 * joined by a nested loop, so it keeps far fewer paths than a pair with a join clause;
 * {@code cartesianPairs} counts them apart.
 *
 * @param pairs unordered pairs; a {@code double} because a 60-relation clique has about 2·10^28
 * @param extraClauses the sum over pairs linked by a clause of their crossings less one, so 0 when
 *     every pair is linked by a single clause (any tree-shaped graph with one clause per edge). A
 *     Cartesian pair of a disconnected graph has no crossing and adds nothing, nor does a pair linked
 *     only by join filters. Extrapolated with {@code pairs}, by the same factor, when the count is not
 *     exact
 * @param crossingSquares the sum over pairs linked by a clause of the square of their crossings less one, so
 *     0 exactly where {@code extraClauses} is; a pair of two crossings adds 3, of three 8. Extrapolated like
 *     {@code extraClauses}
 * @param cartesianPairs how many of {@code pairs} no clause links (see above); never more than {@code pairs}
 * @param parameterizations over the pairs, the relations outside the pair's join relation that an index
 *     scan inside it can be parameterized by ({@link JoinGraph#indexScanParameterMask}): each is a family
 *     of parameterized paths ({@code get_index_paths}, src/backend/optimizer/path/indxpath.c) that the
 *     pair builds join paths for and the join relation keeps. Only those PostgreSQL keeps are counted: a
 *     parameter from outside an outer or semi join's right side the relation overlaps, or a star-schema one
 *     ({@link ParameterSources}); so a tree joined key to id without outer joins has none. Counted per pair,
 *     not per join relation, because every pair that makes a relation joins its sides' parameterized paths
 *     again: a star with an indexed hub has {@code (n-1)(n-2)2^(n-3)}, and what PostgreSQL 18 used per added
 *     one stayed at 0.8-0.9 kB for stars of 8 and 10 tables, 4.6-5.6 kB for the first rows from 8 to 14
 *     tables, where per join relation it grew with the star. 0 when no index scan is marked. Extrapolated
 *     with {@code pairs} when the count is not exact
 * @param joinRelations the join relations the pairs make: the connected sets of two or more relations, each made
 *     by at least one pair (under order restrictions, the sets a pair PostgreSQL builds makes). The first pair to
 *     make a set creates its {@code RelOptInfo} and paths ({@code build_join_rel}, src/backend/optimizer/util/
 *     relnode.c); every further pair finds it and only adds the paths that survive {@code add_path} beside them.
 *     So a pair costs less where sets are made many ways (cycles, cliques) than where each set is made by few
 *     (trees, joins whose order outer and semi joins fix). Extrapolated with {@code pairs} when the count is not
 *     exact
 * @param exact whether {@code pairs} was counted exactly; {@code false} when the enumeration ran out of
 *     its step budget (or the graph was too large to enumerate) and {@code pairs} is an extrapolation
 * @param steps enumeration steps spent, the work this count cost
 */
public record MemoSize(double pairs, double extraClauses, double crossingSquares, double cartesianPairs,
                       double parameterizations, double joinRelations, boolean exact, long steps) {

    /** No join to plan. */
    public static final MemoSize NONE = new MemoSize(0, 0, 0, 0, 0, 0, true, 0);

    public MemoSize {
        if (!(pairs >= 0) || Double.isInfinite(pairs)) {
            throw new IllegalArgumentException("pairs must be finite and >= 0, was " + pairs);
        }
        if (!(extraClauses >= 0) || Double.isInfinite(extraClauses)) {
            throw new IllegalArgumentException("extraClauses must be finite and >= 0, was " + extraClauses);
        }
        if (!(crossingSquares >= 0) || Double.isInfinite(crossingSquares)) {
            throw new IllegalArgumentException("crossingSquares must be finite and >= 0, was " + crossingSquares);
        }
        if (!(cartesianPairs >= 0) || cartesianPairs > pairs) {
            throw new IllegalArgumentException("cartesianPairs must be between 0 and pairs " + pairs + ", was "
                    + cartesianPairs);
        }
        if (!(parameterizations >= 0) || Double.isInfinite(parameterizations)) {
            throw new IllegalArgumentException("parameterizations must be finite and >= 0, was " + parameterizations);
        }
        if (!(joinRelations >= 0) || joinRelations > pairs) {
            throw new IllegalArgumentException("joinRelations must be between 0 and pairs " + pairs + ", was "
                    + joinRelations);
        }
        if (steps < 0) {
            throw new IllegalArgumentException("steps must be >= 0, was " + steps);
        }
    }

    /** Whether the count stopped at its budget and was extrapolated. */
    public boolean capped() {
        return !exact;
    }
}

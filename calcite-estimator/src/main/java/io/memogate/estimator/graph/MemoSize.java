package io.memogate.estimator.graph;

/**
 * The size of a dynamic-programming join search's memo, as the number of csg-cmp pairs: the pairs of
 * disjoint connected relation sets, linked by a join clause, that the optimizer combines (Moerkotte &amp;
 * Neumann, VLDB 2006, section 2). PostgreSQL calls {@code make_join_rel} once per such pair, and each
 * call leaves its join relation and paths in the planner's memory until planning ends.
 *
 * @param pairs unordered pairs; a {@code double} because a 60-relation clique has about 2·10^28
 * @param exact whether {@code pairs} was counted exactly; {@code false} when the enumeration ran out of
 *     its step budget (or the graph was too large to enumerate) and {@code pairs} is an extrapolation
 * @param steps enumeration steps spent, the work this count cost
 */
public record MemoSize(double pairs, boolean exact, long steps) {

    /** No join to plan. */
    public static final MemoSize NONE = new MemoSize(0, true, 0);

    public MemoSize {
        if (!(pairs >= 0) || Double.isInfinite(pairs)) {
            throw new IllegalArgumentException("pairs must be finite and >= 0, was " + pairs);
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

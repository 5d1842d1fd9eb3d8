package io.memogate.estimator.planner;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * What PostgreSQL does to plan one statement: every join search (the problems of each query block, its
 * sub-problems and separately planned sub-selects), the query blocks themselves, and the size of the
 * expressions it reads. The planner keeps what each built until planning ends, so the statement's
 * memory grows with the sum; the largest problem is what to bound first.
 *
 * @param searches the join searches
 * @param blocks query blocks planned ({@code subquery_planner} calls), 0 when not counted; each has its
 *     own planner state, base relations and upper-level paths (grouping, sorting) whatever it joins
 * @param tokens tokens of the statement's text, 0 when not counted: the parse tree, the rewritten query
 *     and the planner's copies of its expressions grow with them
 */
public record PlannerWork(List<JoinSearch> searches, int blocks, int tokens) {

    /** A statement without joins. */
    public static final PlannerWork NONE = new PlannerWork(List.of());

    public PlannerWork {
        searches = List.copyOf(searches);
        if (blocks < 0 || tokens < 0) {
            throw new IllegalArgumentException("blocks and tokens must be >= 0, were " + blocks + " and " + tokens);
        }
    }

    /** Join searches only, blocks and tokens not counted. */
    public PlannerWork(List<JoinSearch> searches) {
        this(searches, 0, 0);
    }

    /** This work, for a statement of {@code count} tokens. */
    public PlannerWork withTokens(int count) {
        return new PlannerWork(searches, blocks, count);
    }

    /** Join relations held at the peak, summed over all searches. */
    public double totalJoinPairs() {
        return searches.stream().mapToDouble(JoinSearch::joinPairs).sum();
    }

    /** Seconds the searches are predicted to take, summed; 0 where the dialect models memory only. */
    public double predictedSeconds() {
        return searches.stream().mapToDouble(JoinSearch::predictedSeconds).sum();
    }

    /** The search holding the most join relations. */
    public Optional<JoinSearch> largest() {
        return searches.stream().max(Comparator.comparingDouble(JoinSearch::joinPairs)
                .thenComparingInt(JoinSearch::relations));
    }

    /** Whether every count is exact (none ran out of its budget). */
    public boolean exact() {
        return searches.stream().allMatch(JoinSearch::exact);
    }
}

package io.memogate.estimator.planner;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Every join search PostgreSQL runs to plan one statement: the problems of each query block, its
 * sub-problems and separately planned sub-selects. The planner keeps what each built until planning
 * ends, so the statement's memory grows with the sum; the largest problem is what to bound first.
 */
public record PlannerWork(List<JoinSearch> searches) {

    /** A statement without joins. */
    public static final PlannerWork NONE = new PlannerWork(List.of());

    public PlannerWork {
        searches = List.copyOf(searches);
    }

    /** Join relations held at the peak, summed over all searches. */
    public double totalJoinPairs() {
        return searches.stream().mapToDouble(JoinSearch::joinPairs).sum();
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

package io.memogate.estimator.dialect;

import io.memogate.estimator.planner.PlannerWork;
import io.memogate.estimator.planner.QueryBlock;

/**
 * A server's planner as the estimator models it: the join searches it runs for a statement's query blocks,
 * and how large each is. One is made per estimate, for the session's settings.
 */
@FunctionalInterface
public interface PlannerModel {

    /**
     * The searches for {@code statement} and every block planned separately, with the blocks counted; tokens
     * are the caller's to add ({@link PlannerWork#withTokens}).
     */
    PlannerWork plan(QueryBlock statement);
}

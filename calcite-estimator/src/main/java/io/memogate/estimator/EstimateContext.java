package io.memogate.estimator;

import io.memogate.estimator.planner.PlannerSettings;
import java.util.ArrayList;
import java.util.List;

/**
 * What an estimate depends on besides the text: the session's settings and prepared statements, the catalog;
 * and the routines whose queries are being estimated, outermost first (empty for the statement sent).
 */
record EstimateContext(PlannerSettings settings, PreparedStatementTexts prepared, Catalog catalog,
                       List<RoutineDefinitions.Routine> following) {

    /** Whether {@code routine}'s queries are being estimated (by identity: records compare whole bodies). */
    boolean follows(RoutineDefinitions.Routine routine) {
        for (RoutineDefinitions.Routine outer : following) {
            if (outer == routine) {
                return true;
            }
        }
        return false;
    }

    /** This context, inside a call of {@code routine}. */
    EstimateContext into(RoutineDefinitions.Routine routine) {
        List<RoutineDefinitions.Routine> deeper = new ArrayList<>(following);
        deeper.add(routine);
        return new EstimateContext(settings, prepared, catalog, List.copyOf(deeper));
    }
}

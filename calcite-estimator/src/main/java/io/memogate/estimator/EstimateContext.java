package io.memogate.estimator;

import io.memogate.estimator.planner.PlannerSettings;
import java.util.ArrayList;
import java.util.List;

/**
 * What an estimate depends on besides the text: the session's settings and prepared statements, the catalog;
 * and, while a routine's queries are estimated, the routines being followed, outermost first (empty for the
 * statement sent), and the calls not followed so far (a cycle, the depth limit), shared by all of them.
 */
record EstimateContext(PlannerSettings settings, PreparedStatementTexts prepared, Catalog catalog,
                       List<RoutineDefinitions.Routine> following, CallsCut cut) {

    /** The context of a statement sent with these settings, prepared statements and catalog. */
    static EstimateContext of(PlannerSettings settings, PreparedStatementTexts prepared, Catalog catalog) {
        return new EstimateContext(settings, prepared, catalog, List.of(), new CallsCut());
    }

    /**
     * Calls a routine's estimate did not follow. An estimate made inside a routine while one was cut depends on
     * the way it was reached (a cycle is cut where it closes), so it is not cached for other ways.
     */
    static final class CallsCut {
        private int count;

        void add() {
            count++;
        }

        int count() {
            return count;
        }
    }

    /** Whether {@code routine}'s queries are being estimated (by identity: records compare whole bodies). */
    boolean follows(RoutineDefinitions.Routine routine) {
        for (RoutineDefinitions.Routine outer : following) {
            if (outer == routine) {
                return true;
            }
        }
        return false;
    }

    /** This context, inside a call of {@code routine}: under the routine's own SET clauses too. */
    EstimateContext into(RoutineDefinitions.Routine routine) {
        List<RoutineDefinitions.Routine> deeper = new ArrayList<>(following);
        deeper.add(routine);
        return new EstimateContext(routine.plannedUnder(settings), prepared, catalog, List.copyOf(deeper), cut);
    }
}

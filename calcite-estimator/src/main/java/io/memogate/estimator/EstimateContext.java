package io.memogate.estimator;

import io.memogate.estimator.dialect.DialectSettings;
import java.util.ArrayList;
import java.util.List;

/**
 * What an estimate depends on besides the text: the session's settings and prepared statements, the catalog;
 * and, while a routine's queries are estimated, the routines being followed, outermost first (empty for the
 * statement sent), and the calls not followed so far (a cycle, the depth limit), shared by all of them.
 */
record EstimateContext(DialectSettings settings, PreparedStatementTexts prepared, Catalog catalog,
                       List<RoutineDefinitions.Routine> following, CallsCut cut) {

    /** The context of a statement sent with these settings, prepared statements and catalog. */
    static EstimateContext of(DialectSettings settings, PreparedStatementTexts prepared, Catalog catalog) {
        return new EstimateContext(settings, prepared, catalog, List.of(), new CallsCut());
    }

    /**
     * Calls a routine's estimate did not follow, by the depth of the routine whose recursion they closed (the
     * depth limit counts as -1). An estimate made at depth d (the number of routines being followed around it)
     * is complete when every call cut while it was made closed on a routine at depth d or deeper: one it entered
     * itself, so its recursion adds nothing. Else it depends on the way it was reached and is not remembered
     * for other ways. Estimates nest, so {@link #open} and {@link #close} bracket each one.
     */
    static final class CallsCut {
        private int shallowest = Integer.MAX_VALUE;

        /** A call closing the recursion of the routine at {@code depth} was not followed (-1: the depth limit). */
        void at(int depth) {
            shallowest = Math.min(shallowest, depth);
        }

        /** An estimate begins; what it returns goes to {@link #close}. */
        int open() {
            int outer = shallowest;
            shallowest = Integer.MAX_VALUE;
            return outer;
        }

        /** The estimate opened with {@code outer}, made at {@code depth}, ends: whether it is complete. */
        boolean close(int outer, int depth) {
            boolean complete = shallowest >= depth;
            shallowest = Math.min(outer, shallowest);
            return complete;
        }
    }

    /**
     * The depth of {@code routine} among those being followed (0: the outermost), -1 when it is not; by
     * identity, as records compare whole bodies.
     */
    int depthOf(RoutineDefinitions.Routine routine) {
        for (int i = 0; i < following.size(); i++) {
            if (following.get(i) == routine) {
                return i;
            }
        }
        return -1;
    }

    /** This context with {@code changed} settings: after a SET in a routine's body. */
    EstimateContext under(DialectSettings changed) {
        return new EstimateContext(changed, prepared, catalog, following, cut);
    }

    /** This context, inside a call of {@code routine}: under the routine's own SET clauses too. */
    EstimateContext into(RoutineDefinitions.Routine routine) {
        List<RoutineDefinitions.Routine> deeper = new ArrayList<>(following);
        deeper.add(routine);
        return new EstimateContext(routine.plannedUnder(settings), prepared, catalog, List.copyOf(deeper), cut);
    }
}

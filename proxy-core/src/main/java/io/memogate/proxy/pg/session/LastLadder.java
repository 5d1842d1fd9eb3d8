package io.memogate.proxy.pg.session;

import io.memogate.estimator.postgres.PlannerSettings;
import io.memogate.proxy.admission.Degradation;
import io.memogate.proxy.postgres.DegradeLadder;
import java.util.List;

/**
 * A session's degrade ladder, made again only when its settings change ({@code SessionSettings#current} returns the
 * same object until they do): nearly every statement never needs it, and making it for each (40-odd settings maps)
 * cost 9 kB a statement. Used on the session's event loop only.
 */
final class LastLadder {

    private PlannerSettings madeFrom;
    private List<Degradation> ladder;

    List<Degradation> of(PlannerSettings current) {
        if (current != madeFrom) {
            ladder = List.copyOf(DegradeLadder.of(current));
            madeFrom = current;
        }
        return ladder;
    }
}

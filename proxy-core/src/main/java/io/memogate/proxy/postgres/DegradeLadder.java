package io.memogate.proxy.postgres;

import io.memogate.estimator.postgres.PlannerSettings;
import io.memogate.proxy.admission.Degradation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The tighter PostgreSQL planner settings a statement may run under instead of waiting for a compile-memory
 * target it can never fit, least restrictive first: partitionwise joins off (a child join per partition pair
 * is what makes partitioned joins plan in gigabytes), then lower collapse limits (smaller join problems, each
 * searched exhaustively), then GEQO at lower thresholds (the genetic search, whose memory does not grow with
 * the join search). Which one fits is the estimator's to say, under each in turn.
 *
 * <p>Memoize off comes between the first two, on its own: it keeps the whole join search, so it costs a plan less
 * than lower limits. It shrinks the estimate of a search planned for its first rows and of one over tables the
 * catalog shows indexed, whose paths are mostly Memoize's; where it does not, the next steps leave Memoize on
 * rather than change a plan for nothing.
 */
public final class DegradeLadder {

    /** Collapse limits above this are lowered from here: a problem this large never fits anyway. */
    private static final int HIGHEST_LIMIT = 24;

    private DegradeLadder() {
    }

    /** The ladder from {@code session}'s own settings. */
    public static List<Degradation> of(PlannerSettings session) {
        List<Degradation> ladder = new ArrayList<>();
        Map<String, String> base = new LinkedHashMap<>();
        if (session.partitionwiseJoin()) {
            base.put("enable_partitionwise_join", "off");
            ladder.add(new Degradation(base));
        }
        if (session.memoize()) {
            Map<String, String> step = new LinkedHashMap<>(base);
            step.put("enable_memoize", "off");
            ladder.add(new Degradation(step));
        }
        int limit = Math.min(HIGHEST_LIMIT + 1, Math.min(session.joinCollapseLimit(), session.fromCollapseLimit()));
        for (int lower = limit - 1; lower >= 2; lower--) {
            Map<String, String> step = new LinkedHashMap<>(base);
            step.put("join_collapse_limit", String.valueOf(lower));
            step.put("from_collapse_limit", String.valueOf(lower));
            ladder.add(new Degradation(step));
        }
        // A FROM list of many tables is one problem whatever the collapse limits: only GEQO bounds its search.
        int threshold = session.geqo() ? session.geqoThreshold() : HIGHEST_LIMIT + 1;
        for (int lower = Math.min(threshold, HIGHEST_LIMIT + 1) - 1; lower >= 2; lower--) {
            Map<String, String> step = new LinkedHashMap<>(base);
            step.put("geqo", "on");
            step.put("geqo_threshold", String.valueOf(lower));
            ladder.add(new Degradation(step));
        }
        return ladder;
    }
}

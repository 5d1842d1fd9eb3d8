package io.memogate.proxy.admin;

import io.memogate.broker.gateway.Gateways;
import io.memogate.broker.gateway.Tier;
import io.memogate.broker.gateway.TierState;
import io.memogate.broker.gateway.WaitingStatement;
import io.memogate.proxy.admission.PredictedWait;
import io.memogate.proxy.admission.QueuedStatement;
import io.memogate.proxy.admission.WaitPredictor;
import java.util.Optional;

/**
 * What the console says of predicted waits ({@link WaitPredictor}): in SHOW QUEUE's {@code degrade} column, for a
 * statement that degrades once it has waited admission.degrade.after; in EXPLAIN ADMISSION's {@code predicted_wait}
 * column, for a statement arriving now. Both predict from the gateways as they stand when the console is asked.
 */
final class WaitViews {

    private WaitViews() {
    }

    /**
     * SHOW QUEUE's {@code degrade} column: the statement's own words ("after 5.0 s", "degraded: ..."), and for one
     * that degrades after waiting, the wait predicted for it where it is now ("after 5.0 s; predicted wait 12.0 s
     * (...)"), or why none is.
     */
    static String degradeColumn(QueuedStatement statement, WaitingStatement waiting, Gateways gateways,
                                WaitPredictor waits) {
        if (statement.degradeAfter() == null) {
            return statement.degrade();
        }
        int permits = waiting.tier() == null ? 0 : gateways.settings().tier(waiting.tier()).limit();
        return statement.degrade() + "; " + waits.predict(waiting, permits).map(PredictedWait::describe)
                .orElseGet(() -> waits.noPrediction(waiting));
    }

    /**
     * EXPLAIN ADMISSION's {@code predicted_wait} column: how long a statement arriving now whose highest tier is
     * {@code highest} would wait for it, as the last in its queue; null for one that takes no tier.
     */
    static String explainColumn(Optional<Tier> highest, Gateways gateways, WaitPredictor waits) {
        if (highest.isEmpty()) {
            return null;
        }
        Tier tier = highest.get();
        TierState state = gateways.state(tier);
        if (state.active() < state.limit() && state.waiting() == 0 && !gateways.paused()) {
            return "none: the " + tier + " gateway has a free permit";
        }
        if (gateways.paused()) {
            return "no predicted wait while the gateways are paused";
        }
        return waits.predict(tier, state.waiting() + 1, gateways.settings().tier(tier).limit())
                .map(PredictedWait::describe).orElseGet(() -> waits.noPrediction(tier));
    }
}

package io.memogate.proxy.admission;

import io.memogate.broker.gateway.Gateways;
import io.memogate.broker.gateway.LedgerState;
import io.memogate.broker.gateway.Tier;
import io.memogate.broker.gateway.TierState;
import io.memogate.broker.gateway.WaitingStatement;
import java.util.Optional;

/**
 * Whether an estimate would be admitted without waiting, now: every tier it needs (by the thresholds in force) has
 * a free permit and nobody queued before it, and the byte budget has its bytes. A waiting statement that would give
 * its own permits back counts them as free: it holds the tiers below the one it waits for (all of them while it
 * waits for the budget). A look at a moving state, not a promise: a statement that finds room may still queue.
 */
final class TierRoom {

    private TierRoom() {
    }

    /** @param own where the statement that would make room waits now; empty for a newcomer */
    static boolean hasRoom(Gateways gateways, long estimateBytes, Optional<WaitingStatement> own) {
        if (estimateBytes < gateways.state(Tier.SMALL).thresholdBytes()) {
            return true; // below t0: no gateway at all
        }
        for (Tier tier : Tier.values()) {
            TierState state = gateways.state(tier);
            if (tier != Tier.SMALL && estimateBytes < state.thresholdBytes()) {
                break;
            }
            int held = own.map(w -> holds(w, tier) ? 1 : 0).orElse(0);
            if (state.active() - held >= state.limit() || state.waiting() > 0) {
                return false;
            }
        }
        LedgerState ledger = gateways.ledger();
        int ownInBudgetQueue = own.filter(WaitingStatement::forBudget).isPresent() ? 1 : 0;
        return ledger.budgetWaiting() - ownInBudgetQueue == 0
                && ledger.totalBytes() + estimateBytes <= ledger.targetBytes();
    }

    private static boolean holds(WaitingStatement waiting, Tier tier) {
        return waiting.forBudget() || waiting.tier() == null || tier.ordinal() < waiting.tier().ordinal();
    }
}

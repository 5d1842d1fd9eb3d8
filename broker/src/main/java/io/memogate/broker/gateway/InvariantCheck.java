package io.memogate.broker.gateway;

/**
 * The gateways' bookkeeping checked against itself, between two operations (under the lock). Permits are
 * counted twice, independently: each tier's {@code active} counter, and the tickets that hold the tier
 * (waiters, found by walking the queues, plus admitted ones); they must agree.
 */
final class InvariantCheck {

    private InvariantCheck() {
    }

    /** @param paused waiters may then stand behind free permits and a fitting budget: nothing is granted */
    static void check(TierGate[] gates, WaitQueue budget, ByteLedger ledger, Ticket doneHead, boolean paused) {
        if (doneHead != null) {
            throw new IllegalStateException("a decided ticket was left undelivered: " + doneHead);
        }
        int[] heldByWaiters = new int[gates.length];
        for (TierGate gate : gates) {
            gate.queue.check();
            for (Ticket t = gate.queue.head; t != null; t = t.next) {
                // Waiting for tier k means holding exactly the k tiers below it.
                checkWaiter(t, gate.tier.ordinal(), gate.tier);
                countHeld(t, heldByWaiters);
            }
        }
        budget.check();
        for (Ticket t = budget.head; t != null; t = t.next) {
            if (t.held == 0) {
                throw new IllegalStateException("budget waiter holds no tier: " + t);
            }
            checkWaiter(t, t.held, Tier.of(t.held - 1));
            countHeld(t, heldByWaiters);
        }
        for (TierGate gate : gates) {
            int i = gate.tier.ordinal();
            if (gate.active < 0 || gate.active != heldByWaiters[i] + gate.admittedHolding) {
                throw new IllegalStateException(gate.tier + ": active " + gate.active + " but " + heldByWaiters[i]
                        + " waiters and " + gate.admittedHolding + " admitted statements hold it");
            }
            if (!paused && !gate.queue.isEmpty() && gate.active < gate.limit) {
                throw new IllegalStateException(gate.tier + ": " + gate.queue.size + " waiting while "
                        + gate.active + " of " + gate.limit + " permits are in use");
            }
        }
        boolean head = true;
        for (Ticket t = paused ? null : budget.head; t != null; t = t.next) {
            long cost = ledger.cost(t.connection(), t.estimateBytes());
            if (cost == 0 || (head && ledger.fits(cost))) {
                throw new IllegalStateException("budget waiter " + t + " costs " + cost + " and could pass");
            }
            head = false;
        }
        ledger.check();
    }

    private static void checkWaiter(Ticket t, int held, Tier needed) {
        if (t.state != Ticket.State.WAITING || t.held != held || t.needed != needed || t.timeout == null) {
            throw new IllegalStateException("waiter " + t + " in state " + t.state + " holds " + t.held
                    + " tiers, needs " + t.needed + (t.timeout == null ? ", no timeout" : "")
                    + "; expected " + held + " tiers, needs " + needed);
        }
    }

    private static void countHeld(Ticket t, int[] heldByWaiters) {
        for (int i = 0; i < t.held; i++) {
            heldByWaiters[i]++;
        }
    }
}

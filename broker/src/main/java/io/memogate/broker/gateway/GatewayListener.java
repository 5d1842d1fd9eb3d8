package io.memogate.broker.gateway;

/**
 * Told of every admission and rejection, for metrics. Called outside the gateways' lock, on whatever
 * thread decided (the acquiring one, a releasing one, the timer), after the ticket's future completed;
 * keep it quick. An exception it throws is logged and does not affect admission.
 */
public interface GatewayListener {

    GatewayListener NONE = new GatewayListener() {
    };

    /**
     * @param highestOrNull the highest tier the statement holds, or null when it was below t0
     * @param waitedNanos time spent waiting (0 when admitted at once)
     */
    default void admitted(Tier highestOrNull, long waitedNanos, long estimateBytes) {
    }

    /** @param tier the tier whose queue was full or timed out (for the byte budget: the highest held) */
    default void rejected(Tier tier, GatewayRejectedException.Reason reason, long waitedNanos,
                          long estimateBytes) {
    }
}

package io.memogate.broker.gateway;

import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link GatewayListener} whose failures are logged and go no further: it runs inside another statement's
 * release or on the timer, where an exception would reach someone who cannot handle it, and metrics must
 * never change an admission.
 */
public final class GuardedListener {

    private static final Logger log = LoggerFactory.getLogger(GuardedListener.class);

    private final GatewayListener listener;

    public GuardedListener(GatewayListener listener) {
        this.listener = Objects.requireNonNull(listener, "listener");
    }

    public void admitted(Tier highestOrNull, long waitedNanos, long estimateBytes) {
        try {
            listener.admitted(highestOrNull, waitedNanos, estimateBytes);
        } catch (RuntimeException e) {
            log.warn("Gateway listener failed on an admission; admission goes on", e);
        }
    }

    public void rejected(GatewayRejectedException rejected, long waitedNanos) {
        try {
            listener.rejected(rejected.tier(), rejected.reason(), waitedNanos, rejected.estimateBytes());
        } catch (RuntimeException e) {
            log.warn("Gateway listener failed on a rejection; admission goes on", e);
        }
    }
}

package io.memogate.broker.redis;

import io.memogate.broker.gateway.GatewaysUnavailableException;

/**
 * The fleet's Redis could not decide a statement: it did not answer, or it lost this instance's state (its
 * lease ran out while the instance was cut off, or Redis restarted empty). The statement is not admitted;
 * the client may retry.
 */
public final class FleetUnavailableException extends GatewaysUnavailableException {

    public FleetUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }

    public FleetUnavailableException(String message) {
        super(message, null);
    }
}

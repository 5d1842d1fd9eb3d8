package io.memogate.proxy.metrics;

/**
 * The proxy's own health: DOWN until it listens, UP while it serves, DOWN again from the moment it
 * starts to stop, so that a load balancer stops sending clients during the shutdown grace period
 * (limits.shutdownTimeout) while sessions already open finish.
 */
final class ServingState implements HealthCheck {

    private volatile boolean serving;

    void serving() {
        serving = true;
    }

    void stopping() {
        serving = false;
    }

    @Override
    public Health check() {
        return serving ? Health.UP : Health.DOWN;
    }
}

package io.memogate.broker.gateway;

/**
 * Runs a task later; the gateways use it for queue timeouts. Injected so that tests drive time by hand
 * ({@link ScheduledGatewayTimer} in production).
 */
public interface GatewayTimer {

    /** Schedules {@code task} to run once after {@code delayNanos}, on a thread of the timer's choosing. */
    Cancellable schedule(Runnable task, long delayNanos);

    interface Cancellable {
        /** The task will not start after this returns; one already running is not interrupted. */
        void cancel();
    }
}

package io.memogate.broker.gateway;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The production {@link GatewayTimer}: one daemon thread. Timeouts are cancelled far more often than
 * they fire (most waiters are granted), so cancelled tasks are removed from the queue at once instead of
 * piling up until their deadline.
 */
public final class ScheduledGatewayTimer implements GatewayTimer, AutoCloseable {

    public static final String THREAD_NAME = "memogate-gateway-timer";

    private static final Cancellable NOTHING = () -> {
    };

    private final ScheduledThreadPoolExecutor executor;

    public ScheduledGatewayTimer() {
        executor = new ScheduledThreadPoolExecutor(1, task -> {
            Thread thread = new Thread(task, THREAD_NAME);
            thread.setDaemon(true);
            return thread;
        });
        executor.setRemoveOnCancelPolicy(true);
    }

    /**
     * After {@link #close()} nothing is scheduled: a waiter then waits until it is granted or withdrawn.
     * Throwing instead would surface inside another statement's release, where nobody can handle it.
     */
    @Override
    public Cancellable schedule(Runnable task, long delayNanos) {
        ScheduledFuture<?> future;
        try {
            future = executor.schedule(task, delayNanos, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException closed) {
            return NOTHING;
        }
        return () -> future.cancel(false);
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}

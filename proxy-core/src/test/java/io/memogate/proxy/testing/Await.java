package io.memogate.proxy.testing;

import java.time.Duration;

/**
 * Waits in tests on state, never on time: polls a condition until it holds, and fails naming what never
 * happened once a deadline passes. The deadline only bounds a test that fails; one that passes waits exactly
 * as long as the state takes to arrive, however busy the machine. Polls start every millisecond and slow
 * to every 50 ms, so that a wait that queries a server does not load it.
 */
public final class Await {

    /** Far longer than any state a test waits for takes on a loaded machine. */
    public static final Duration DEFAULT = Duration.ofSeconds(30);

    private static final long FIRST_POLL_MILLIS = 1;
    private static final long LAST_POLL_MILLIS = 50;

    /** A condition that may fail to be checked, as a query of the server's activity may. */
    @FunctionalInterface
    public interface Condition {
        boolean holds() throws Exception;
    }

    private Await() {
    }

    /** Waits until {@code condition} holds, for at most {@link #DEFAULT}. */
    public static void until(String what, Condition condition) throws InterruptedException {
        until(what, DEFAULT, condition);
    }

    /**
     * Waits until {@code condition} holds; fails after {@code max} with {@code what}, said as the state
     * awaited ("the server runs select pg_sleep(30)").
     */
    public static void until(String what, Duration max, Condition condition) throws InterruptedException {
        if (!holdsWithin(max, condition)) {
            throw new AssertionError("still not so after " + max.toMillis() + " ms: " + what);
        }
    }

    /** Waits until {@code condition} holds or {@code max} passes, for a caller that reports a failure itself. */
    public static boolean holdsWithin(Duration max, Condition condition) throws InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        long poll = FIRST_POLL_MILLIS;
        while (!check(condition)) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.sleep(poll);
            poll = Math.min(poll * 2, LAST_POLL_MILLIS);
        }
        return true;
    }

    private static boolean check(Condition condition) throws InterruptedException {
        try {
            return condition.holds();
        } catch (RuntimeException | InterruptedException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("checking a condition awaited failed", e);
        }
    }
}

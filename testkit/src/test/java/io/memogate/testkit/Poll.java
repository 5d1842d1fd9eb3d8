package io.memogate.testkit;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waits on state the test can read, never for a fixed time. */
final class Poll {

    private static final Duration LIMIT = Duration.ofSeconds(30);

    private Poll() {
    }

    static void until(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("waited " + LIMIT.toSeconds() + " s for " + what);
            }
            Thread.sleep(10);
        }
    }
}

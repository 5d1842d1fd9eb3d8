package io.memogate.broker.redis;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Waits on state, never on time: polls until the condition holds, and fails naming it after a deadline. */
final class Eventually {

    /** Far longer than any state awaited here takes, even on a loaded machine. */
    static final Duration DEFAULT = Duration.ofSeconds(30);

    private Eventually() {
    }

    static void until(String what, BooleanSupplier condition) throws InterruptedException {
        until(what, condition, () -> "");
    }

    /** @param state what the failure shows besides {@code what}: the state that never came right */
    static void until(String what, BooleanSupplier condition, Supplier<Object> state) throws InterruptedException {
        long deadline = System.nanoTime() + DEFAULT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("still not so after " + DEFAULT.toSeconds() + " s: " + what + " " + state.get());
            }
            Thread.sleep(5);
        }
    }
}

package io.memogate.broker.gateway;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/** A nanoTime that moves only when told; thread-safe. Starts far from 0 so no code can rely on 0. */
final class ManualClock implements LongSupplier {

    private final AtomicLong now = new AtomicLong(1_000_000_000_000L);

    @Override
    public long getAsLong() {
        return now.get();
    }

    long advance(Duration by) {
        return now.addAndGet(by.toNanos());
    }
}

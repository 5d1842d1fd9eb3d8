package io.memogate.broker.probe;

import java.util.function.LongSupplier;

/**
 * Makes the {@link MemoryProbe} for one kind of server (each lives in its own module with its driver,
 * e.g. memogate-broker-postgres); the proxy picks the factory for the server kind it fronts.
 */
@FunctionalInterface
public interface ProbeFactory {

    /**
     * A probe that reaches its server as {@code settings} say. It connects lazily, at its first poll,
     * and stamps each snapshot with {@code nanoTime}, the clock the broker ages snapshots with.
     */
    MemoryProbe open(ProbeSettings settings, LongSupplier nanoTime);
}

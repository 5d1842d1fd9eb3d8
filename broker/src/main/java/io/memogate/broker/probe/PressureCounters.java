package io.memogate.broker.probe;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The cumulative counters the broker's pressure signals come from, as the server keeps them since its
 * statistics were last reset; see {@link MemorySnapshot} for what each kind of server maps here.
 *
 * @param spilledBytes bytes queries wrote to temporary files because their memory ran short
 * @param cacheMisses  pages read from outside the data cache
 * @param cacheHits    pages found in the data cache
 * @param io           I/O of client work, where the server reports it
 * @param compileWaits times a compile waited for memory to compile in, where the server gates compiles
 * @param memoryWaitMillis milliseconds tasks waited for memory (to run a query or to allocate), where the
 *                     server counts them
 */
public record PressureCounters(long spilledBytes, long cacheMisses, long cacheHits, Optional<IoCounters> io,
                               OptionalLong compileWaits, OptionalLong memoryWaitMillis) {

    /** The counters of a server that does not count its tasks' waits for memory. */
    public PressureCounters(long spilledBytes, long cacheMisses, long cacheHits, Optional<IoCounters> io,
                            OptionalLong compileWaits) {
        this(spilledBytes, cacheMisses, cacheHits, io, compileWaits, OptionalLong.empty());
    }

    public PressureCounters {
        requireNonNegative("spilledBytes", spilledBytes);
        requireNonNegative("cacheMisses", cacheMisses);
        requireNonNegative("cacheHits", cacheHits);
        Objects.requireNonNull(io, "io");
        Objects.requireNonNull(compileWaits, "compileWaits");
        compileWaits.ifPresent(waits -> requireNonNegative("compileWaits", waits));
        Objects.requireNonNull(memoryWaitMillis, "memoryWaitMillis");
        memoryWaitMillis.ifPresent(millis -> requireNonNegative("memoryWaitMillis", millis));
    }

    private static void requireNonNegative(String field, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(field + " must be >= 0, was " + value);
        }
    }
}

package io.memogate.broker.probe;

/**
 * Cumulative I/O operations of the server's client work since its statistics were last reset
 * (PostgreSQL 16+: {@code pg_stat_io} of client backends, summed over objects and contexts).
 *
 * @param reads      read operations
 * @param writes     write operations (PostgreSQL: a backend that writes buffers out itself found too few
 *                   clean ones)
 * @param extensions file extensions (PostgreSQL: {@code pg_stat_io.extends})
 */
public record IoCounters(long reads, long writes, long extensions) {

    public IoCounters {
        requireNonNegative("reads", reads);
        requireNonNegative("writes", writes);
        requireNonNegative("extensions", extensions);
    }

    private static void requireNonNegative(String field, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(field + " must be >= 0, was " + value);
        }
    }
}

package io.memogate.broker.probe;

/**
 * Cumulative I/O operations of client backends since the server's statistics were last reset
 * (PostgreSQL 16+: {@code pg_stat_io} summed over objects and contexts).
 *
 * @param reads      read operations
 * @param writes     write operations (a backend that writes buffers out itself found too few clean ones)
 * @param extensions relation extensions ({@code pg_stat_io.extends})
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

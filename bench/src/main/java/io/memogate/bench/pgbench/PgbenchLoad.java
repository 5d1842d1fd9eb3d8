package io.memogate.bench.pgbench;

import java.util.Objects;

/** One pgbench run's shape: the built-in select-only script for {@code seconds}. */
public record PgbenchLoad(QueryMode mode, int seconds, int clients, int threads) {

    public PgbenchLoad {
        Objects.requireNonNull(mode, "mode");
        if (seconds < 1 || clients < 1 || threads < 1) {
            throw new IllegalArgumentException("seconds, clients and threads must be at least 1, were "
                    + seconds + ", " + clients + ", " + threads);
        }
        if (clients % threads != 0) {
            // pgbench itself refuses this ("number of clients (%d) must be a multiple of number of threads").
            throw new IllegalArgumentException("clients (" + clients + ") must be a multiple of threads (" + threads + ")");
        }
    }
}

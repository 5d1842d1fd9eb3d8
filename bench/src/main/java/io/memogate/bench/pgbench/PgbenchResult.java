package io.memogate.bench.pgbench;

import java.util.Objects;

/** What one pgbench run measured, or why it measured nothing usable. */
public sealed interface PgbenchResult {

    /**
     * @param tps          transactions per second as pgbench printed it
     * @param transactions "number of transactions actually processed"
     * @param tpsBasis     pgbench's parenthesis after the figure, e.g. "without initial connection time"
     */
    record Succeeded(double tps, long transactions, String tpsBasis) implements PgbenchResult {
        public Succeeded {
            Objects.requireNonNull(tpsBasis, "tpsBasis");
        }
    }

    /** @param reason one line saying what went wrong (exit status, failed transactions, missing figure) */
    record Failed(String reason) implements PgbenchResult {
        public Failed {
            Objects.requireNonNull(reason, "reason");
        }
    }
}

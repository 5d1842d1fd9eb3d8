package io.memogate.bench.passthrough;

import java.time.Instant;
import java.util.OptionalDouble;

/** The transactions pgbench finished between two instants of a run, which a reading taken at each is divided by. */
@FunctionalInterface
interface TransactionCount {

    /** Empty when the count between these instants is not known. */
    OptionalDouble between(Instant from, Instant to);

    /** Every reading spans the whole run: pgbench's own count of it, whatever the instants. */
    static TransactionCount wholeRun(long transactions) {
        return (from, to) -> OptionalDouble.of(transactions);
    }
}

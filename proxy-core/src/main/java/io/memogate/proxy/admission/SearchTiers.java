package io.memogate.proxy.admission;

import io.memogate.broker.gateway.Tier;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The tiers a statement takes for the time its join search is predicted to burn on the server's CPU, whatever
 * its memory: MySQL's and MariaDB's greedy search with pruning off takes seconds to minutes in a few megabytes
 * (bench/log/mysql-optimizer.md), so its memory alone would let any number of them through at once. A search
 * predicted to take {@code small} or more takes SMALL, {@code medium} or more MEDIUM as well, {@code large} or
 * more LARGE as well; the tier limits (4 x CPUs, CPUs, 1 by default) then bound the CPU-heavy compiles running
 * at once, as the paper's gateways do (Baryshnikov et al., CIDR 2007). Above its floor a statement's bytes still
 * decide. Dialects that predict no time (PostgreSQL's) are weighed by memory alone. Immutable.
 *
 * @param small the predicted search time from which a statement takes SMALL
 * @param medium from which it takes MEDIUM; at least {@code small}
 * @param large from which it takes LARGE; at least {@code medium}
 */
public record SearchTiers(Duration small, Duration medium, Duration large) {

    /**
     * A tenth of a second of a CPU is already a hundred point selects; a second per compile is where a server's
     * CPUs should not all be searching at once; ten seconds, one at a time.
     */
    public static final SearchTiers DEFAULTS =
            new SearchTiers(Duration.ofMillis(100), Duration.ofSeconds(1), Duration.ofSeconds(10));

    public SearchTiers {
        Objects.requireNonNull(small, "small");
        Objects.requireNonNull(medium, "medium");
        Objects.requireNonNull(large, "large");
        if (small.isNegative() || small.isZero()) {
            throw new IllegalArgumentException("the search time that takes SMALL must be > 0, was " + small);
        }
        if (medium.compareTo(small) < 0 || large.compareTo(medium) < 0) {
            throw new IllegalArgumentException("search times must not decrease from small to medium to large, were "
                    + small + ", " + medium + " and " + large);
        }
    }

    /** The highest tier a search predicted to take {@code seconds} needs; empty below {@code small}. */
    public Optional<Tier> floor(double seconds) {
        if (!(seconds >= 0)) {
            return Optional.empty(); // NaN: no prediction
        }
        long nanos = seconds >= Long.MAX_VALUE / 1e9 ? Long.MAX_VALUE : (long) (seconds * 1e9);
        if (nanos >= large.toNanos()) {
            return Optional.of(Tier.LARGE);
        }
        if (nanos >= medium.toNanos()) {
            return Optional.of(Tier.MEDIUM);
        }
        return nanos >= small.toNanos() ? Optional.of(Tier.SMALL) : Optional.empty();
    }

    /** The setting of {@code tier}. */
    public Duration of(Tier tier) {
        return switch (tier) {
            case SMALL -> small;
            case MEDIUM -> medium;
            case LARGE -> large;
        };
    }
}

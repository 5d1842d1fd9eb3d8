package io.memogate.proxy.admission;

import io.memogate.broker.gateway.Tier;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * How many statements one server's admission degraded ({@link Degraded}), by the tier their degraded estimate
 * took ("none" below t0): {@code memogate_degraded_total} reads them. Safe from any thread.
 */
public final class DegradeCounts {

    /** The tier label of a degraded statement that took no gateway. */
    public static final String NO_TIER = "none";

    private final Map<String, LongAdder> byTier = new ConcurrentHashMap<>();

    void degraded(Optional<Tier> tier) {
        byTier.computeIfAbsent(label(tier), t -> new LongAdder()).increment();
    }

    /** The count for one tier label ({@link #labels()}). */
    public long count(String tier) {
        LongAdder count = byTier.get(tier);
        return count == null ? 0 : count.sum();
    }

    /** Every label a count can have: the tiers in lower case, and {@value #NO_TIER}. */
    public static List<String> labels() {
        List<String> labels = new ArrayList<>();
        for (Tier tier : Tier.values()) {
            labels.add(tier.name().toLowerCase(Locale.ROOT));
        }
        labels.add(NO_TIER);
        return labels;
    }

    /** The total over every tier. */
    public long total() {
        return byTier.values().stream().mapToLong(LongAdder::sum).sum();
    }

    private static String label(Optional<Tier> tier) {
        return tier.map(t -> t.name().toLowerCase(Locale.ROOT)).orElse(NO_TIER);
    }
}

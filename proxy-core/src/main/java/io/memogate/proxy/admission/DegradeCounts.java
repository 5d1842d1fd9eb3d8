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
 * took ("none" below t0) and by why ({@link Degraded.Reason}): {@code memogate_degraded_total} reads them. Safe
 * from any thread.
 */
public final class DegradeCounts {

    /** The tier label of a degraded statement that took no gateway. */
    public static final String NO_TIER = "none";

    private final Map<String, LongAdder> byTierAndReason = new ConcurrentHashMap<>();

    void degraded(Optional<Tier> tier, Degraded.Reason reason) {
        byTierAndReason.computeIfAbsent(key(label(tier), reason), k -> new LongAdder()).increment();
    }

    /** The count for one tier label ({@link #labels()}), whatever the reason. */
    public long count(String tier) {
        long sum = 0;
        for (Degraded.Reason reason : Degraded.Reason.values()) {
            sum += count(tier, reason);
        }
        return sum;
    }

    /** The count for one tier label and one reason. */
    public long count(String tier, Degraded.Reason reason) {
        LongAdder count = byTierAndReason.get(key(tier, reason));
        return count == null ? 0 : count.sum();
    }

    /** The count for one reason, over every tier. */
    public long count(Degraded.Reason reason) {
        return labels().stream().mapToLong(tier -> count(tier, reason)).sum();
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
        return byTierAndReason.values().stream().mapToLong(LongAdder::sum).sum();
    }

    private static String key(String tier, Degraded.Reason reason) {
        return tier + "/" + reason.label();
    }

    private static String label(Optional<Tier> tier) {
        return tier.map(t -> t.name().toLowerCase(Locale.ROOT)).orElse(NO_TIER);
    }
}

package io.memogate.broker.gateway;

import java.time.Duration;

/**
 * The gateways' configuration: the static threshold t0 and one {@link TierSettings} per tier. Validated
 * here, once; a reload builds a new object and hands it to {@link Gateways#reconfigure}.
 *
 * @param staticThresholdBytes t0: statements estimated below it pass without any gateway, at least 0
 */
public record GatewaySettings(long staticThresholdBytes, TierSettings small, TierSettings medium,
                              TierSettings large) {

    /**
     * Below this a statement plans in a few hundred kB (a 12-table star needs 26 MB, a two-table join
     * well under 1 MB, DESIGN.md "Why it matters"): nothing to protect the server against, and the
     * ungated path takes no lock.
     */
    public static final long DEFAULT_STATIC_THRESHOLD_BYTES = 1L << 20;

    /** The most CPUs {@link #defaults} accepts; far beyond any server, it keeps 4 x cpus an int. */
    public static final int MAX_CPUS = 1 << 16;

    public GatewaySettings {
        if (staticThresholdBytes < 0) {
            throw new IllegalArgumentException(
                    "staticThresholdBytes must be >= 0, was " + staticThresholdBytes);
        }
        check(small, Tier.SMALL);
        check(medium, Tier.MEDIUM);
        check(large, Tier.LARGE);
    }

    private static void check(TierSettings tier, Tier which) {
        String path = "tiers." + which.configName();
        if (tier == null) {
            throw new IllegalArgumentException(path + " must be set");
        }
        tier.validate(path);
    }

    /**
     * The paper's sizing for a server with {@code cpus} processors.
     *
     * <p>Limits 4 x, 1 x CPUs and 1: small compilations are many and cheap, and a big one uses a CPU for
     * seconds, so more of them at once only adds memory, not throughput.
     *
     * <p>Fractions 0.25 and 0.5: at an idle server (S = 1) a statement needs a quarter of the compile
     * target to leave SMALL and half of it to need LARGE; as more statements hold a tier, S grows and
     * the thresholds fall, so under load smaller statements are already serialized (the paper's
     * behaviour).
     *
     * <p>Timeouts 30 s, 120 s, 300 s grow with the tier: a statement in a higher tier queues behind
     * compilations that themselves take seconds to minutes (a 16-table star plans in 7.5 s with 615 MB),
     * so a wait that is alarming for a small statement is normal for a large one. Queue lengths shrink
     * with the tier for the same reason: 50 statements waiting for LARGE are already minutes of work.
     */
    public static GatewaySettings defaults(int cpus) {
        if (cpus < 1 || cpus > MAX_CPUS) {
            throw new IllegalArgumentException("cpus must be in [1, " + MAX_CPUS + "], was " + cpus);
        }
        return new GatewaySettings(DEFAULT_STATIC_THRESHOLD_BYTES,
                new TierSettings(4 * cpus, 0.25, 1000, Duration.ofSeconds(30)),
                new TierSettings(cpus, 0.5, 200, Duration.ofSeconds(120)),
                new TierSettings(1, 1.0, 50, Duration.ofSeconds(300)));
    }

    public TierSettings tier(Tier tier) {
        return switch (tier) {
            case SMALL -> small;
            case MEDIUM -> medium;
            case LARGE -> large;
        };
    }

    public GatewaySettings with(Tier tier, TierSettings settings) {
        return new GatewaySettings(staticThresholdBytes,
                tier == Tier.SMALL ? settings : small,
                tier == Tier.MEDIUM ? settings : medium,
                tier == Tier.LARGE ? settings : large);
    }

    public GatewaySettings withStaticThreshold(long bytes) {
        return new GatewaySettings(bytes, small, medium, large);
    }
}

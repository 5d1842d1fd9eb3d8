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
     * <p>Timeouts 2, 4 and 8 minutes. A refusal does not make the work go away: the client retries or
     * fails, so the gateway should refuse only what will not be served in any reasonable time. SMALL
     * waits as long as PgBouncer lets a client wait for a server connection ({@code query_wait_timeout},
     * 120 s), and a compile storm needs that: 40 clients planning 13-18-table reports on 2 CPUs
     * complete about one a second, so each waits about 40 s (Little's law), and a 30 s timeout refused
     * 17% of attempts in the storm benchmark (bench/log/storm.md, "Run 3"). The timeouts double with the tier: a
     * statement in a higher tier queues behind compilations that themselves take seconds to minutes (a
     * 16-table star plans in 7.5 s with 615 MB). Queue lengths shrink with the tier for the same reason:
     * 50 statements waiting for LARGE are already minutes of work. The wait in a gateway does not count
     * against the session's {@code statement_timeout}, which the server starts when the statement
     * reaches it (as with PgBouncer's queue).
     */
    public static GatewaySettings defaults(int cpus) {
        if (cpus < 1 || cpus > MAX_CPUS) {
            throw new IllegalArgumentException("cpus must be in [1, " + MAX_CPUS + "], was " + cpus);
        }
        return new GatewaySettings(DEFAULT_STATIC_THRESHOLD_BYTES,
                new TierSettings(4 * cpus, 0.25, 1000, Duration.ofMinutes(2)),
                new TierSettings(cpus, 0.5, 200, Duration.ofMinutes(4)),
                new TierSettings(1, 1.0, 50, Duration.ofMinutes(8)));
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

package io.memogate.proxy.postgres.calibrate;

import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.broker.gateway.Tier;
import java.util.Optional;

/**
 * The tier a statement would reach on an idle proxy: below t0 no gateway; then SMALL up to
 * t1 = target x F_small, MEDIUM up to t2 = target x F_medium, LARGE beyond (docs/DESIGN.md, "Gateways",
 * with S = 1 in both thresholds). The running gateways lower t1 and t2 as more statements hold a tier
 * ({@code Gateways}); a fixed scale is what makes the tiers of a measurement and of an estimate
 * comparable, so that tier agreement says whether the estimate would have sent the statement through
 * the gateways its real memory called for.
 *
 * @param t0 static threshold: below it, no gateway
 * @param t1 from here, MEDIUM as well
 * @param t2 from here, LARGE as well
 */
public record StaticTiers(long t0, long t1, long t2) {

    public StaticTiers {
        if (t0 < 0 || t1 < 0 || t2 < 0) {
            throw new IllegalArgumentException("thresholds must be >= 0, were " + t0 + ", " + t1 + ", " + t2);
        }
    }

    /** t0 of {@code settings}, and t1, t2 of its fractions of {@code targetBytes}. */
    public static StaticTiers of(GatewaySettings settings, long targetBytes) {
        return new StaticTiers(settings.staticThresholdBytes(),
                (long) (targetBytes * settings.small().fraction()),
                (long) (targetBytes * settings.medium().fraction()));
    }

    /** The highest tier a statement of {@code bytes} takes; empty below t0. */
    public Optional<Tier> tierOf(long bytes) {
        if (bytes < t0) {
            return Optional.empty();
        }
        if (bytes < t1) {
            return Optional.of(Tier.SMALL);
        }
        return Optional.of(bytes >= t2 ? Tier.LARGE : Tier.MEDIUM); // LARGE is asked for only by MEDIUM's holders
    }
}

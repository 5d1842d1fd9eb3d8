package io.memogate.broker.gateway;

import java.util.Locale;

/**
 * The three compile gateways of Baryshnikov et al. (CIDR 2007), in the order a statement acquires them.
 * A statement holds every tier below the highest one it needs, so the ordinal is also the number of
 * permits held beneath it.
 */
public enum Tier {
    SMALL,
    MEDIUM,
    LARGE;

    private static final Tier[] ALL = values();

    /** The name used in configuration paths ("tiers.medium.fraction"). */
    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The tier with this ordinal; avoids the array copy values() makes on every call. */
    static Tier of(int ordinal) {
        return ALL[ordinal];
    }
}

package io.memogate.broker.redis;

import io.memogate.broker.gateway.GatewayRejectedException;
import io.memogate.broker.gateway.Tier;

/** A ticket's fate, decided in Redis and delivered to the instance that issued it (gateways.lua, done list). */
sealed interface Decision {

    /** The ticket's id: its instance and a sequence number. */
    String id();

    /** Admitted, holding every tier up to {@code highest}. */
    record Granted(String id, Tier highest) implements Decision {
    }

    /** Refused: a full queue or a timeout in {@code tier}'s queue, or in the budget's while holding it. */
    record Refused(String id, GatewayRejectedException.Reason reason, Tier tier, boolean budget, boolean paused)
            implements Decision {
    }

    /** "A id tier" or "R id Q|T tier budget paused", tiers numbered from 1. */
    static Decision parse(String entry) {
        String[] f = entry.split(" ");
        if (f.length == 3 && f[0].equals("A")) {
            return new Granted(f[1], tier(f[2]));
        }
        if (f.length == 6 && f[0].equals("R")) {
            GatewayRejectedException.Reason reason = switch (f[2]) {
                case "Q" -> GatewayRejectedException.Reason.QUEUE_FULL;
                case "T" -> GatewayRejectedException.Reason.TIMEOUT;
                default -> throw malformed(entry);
            };
            return new Refused(f[1], reason, tier(f[3]), f[4].equals("1"), f[5].equals("1"));
        }
        throw malformed(entry);
    }

    /** Tiers as gateways.lua numbers them: 1 SMALL, 2 MEDIUM, 3 LARGE. */
    static Tier tier(String number) {
        return Tier.values()[Integer.parseInt(number) - 1];
    }

    private static IllegalStateException malformed(String entry) {
        return new IllegalStateException("the fleet's Redis sent a decision this version cannot read: '" + entry + "'");
    }
}

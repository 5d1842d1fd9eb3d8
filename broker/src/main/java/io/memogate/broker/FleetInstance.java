package io.memogate.broker;

import io.memogate.broker.gateway.Tier;
import java.time.Duration;
import java.util.Objects;

/**
 * One proxy of a fleet, as the fleet's store counts it: for the admin console's view of who holds what.
 *
 * @param name          the instance's name in the fleet
 * @param self          true for the instance that asked
 * @param leaseLeft     how long until its lease runs out unless it calls again (then the fleet reaps it)
 * @param small         SMALL permits it holds, by admitted and waiting statements
 * @param medium        MEDIUM permits it holds
 * @param large         LARGE permits it holds
 * @param inFlightBytes the estimates of its admitted statements
 * @param waiting       its statements waiting in the fleet's queues
 */
public record FleetInstance(String name, boolean self, Duration leaseLeft, int small, int medium, int large,
                            long inFlightBytes, int waiting) {

    public FleetInstance {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(leaseLeft, "leaseLeft");
    }

    /** The permits of {@code tier} it holds. */
    public int held(Tier tier) {
        return switch (tier) {
            case SMALL -> small;
            case MEDIUM -> medium;
            case LARGE -> large;
        };
    }
}

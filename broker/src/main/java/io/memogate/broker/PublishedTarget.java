package io.memogate.broker;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What a fleet's leading broker last published for its server, as a follower reads it.
 *
 * @param targetBytes     the leader's compile-memory target
 * @param mode            the leader's own mode when it published (its probe may have been failing)
 * @param epoch           the lease epoch it was published under
 * @param leader          the instance that published it
 * @param age             how long ago, by the store's clock (every instance reads the same age)
 * @param signals         the pressure signals behind the target
 * @param plannerSettings the server's planner settings the leader read, for the estimates of new sessions
 */
public record PublishedTarget(long targetBytes, BrokerMode mode, long epoch, String leader, Duration age,
                              Set<PressureSignal> signals, Map<String, String> plannerSettings) {

    public PublishedTarget {
        if (targetBytes <= 0) {
            throw new IllegalArgumentException("targetBytes must be > 0, was " + targetBytes);
        }
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(leader, "leader");
        Objects.requireNonNull(age, "age");
        signals = Set.copyOf(signals);
        plannerSettings = Map.copyOf(plannerSettings);
    }
}

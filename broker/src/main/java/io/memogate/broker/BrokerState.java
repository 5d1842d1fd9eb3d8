package io.memogate.broker;

import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

import io.memogate.broker.probe.MemorySnapshot;

/**
 * What the broker knows after a poll, immutable; {@link Broker#state()} returns the latest.
 *
 * @param mode                where the target comes from
 * @param targetBytes         the compile-memory target for the gateways
 * @param lastGoodSnapshot    the last snapshot a poll returned, if any poll ever succeeded
 * @param lastGoodAge         how old that snapshot was when this state was made
 * @param lastInterval        the activity between the last two good snapshots, when known
 * @param consecutiveFailures failed polls since the last good one
 * @param totalFailures       failed polls since the broker was made
 * @param lastFailure         the message of the most recent failed poll, if any poll ever failed
 * @param pressureSignals     the signals of the last good poll (empty in STATIC)
 * @param plannerSettings     the server's planner settings from the last good snapshot (empty in STATIC)
 * @param privateBytesByPid   retained memory per server process or connection id from the last good
 *                            snapshot (empty in STATIC, and when the probe cannot read it, e.g. a
 *                            PostgreSQL server that is not co-located; and on a follower, whose
 *                            fleet's leader measures them)
 * @param role                who polled: this instance alone, as the fleet's leader, or nobody here (a
 *                            follower, whose target is the leader's)
 */
public record BrokerState(
        BrokerMode mode,
        long targetBytes,
        Optional<MemorySnapshot> lastGoodSnapshot,
        Optional<Duration> lastGoodAge,
        Optional<IntervalStatistics> lastInterval,
        int consecutiveFailures,
        long totalFailures,
        Optional<String> lastFailure,
        Set<PressureSignal> pressureSignals,
        Map<String, String> plannerSettings,
        Map<Integer, Long> privateBytesByPid,
        BrokerRole role) {

    /** The state of a broker that polls for itself alone. */
    public BrokerState(BrokerMode mode, long targetBytes, Optional<MemorySnapshot> lastGoodSnapshot,
                       Optional<Duration> lastGoodAge, Optional<IntervalStatistics> lastInterval,
                       int consecutiveFailures, long totalFailures, Optional<String> lastFailure,
                       Set<PressureSignal> pressureSignals, Map<String, String> plannerSettings,
                       Map<Integer, Long> privateBytesByPid) {
        this(mode, targetBytes, lastGoodSnapshot, lastGoodAge, lastInterval, consecutiveFailures, totalFailures,
                lastFailure, pressureSignals, plannerSettings, privateBytesByPid, BrokerRole.ALONE);
    }

    public BrokerState {
        Objects.requireNonNull(mode, "mode");
        if (targetBytes <= 0) {
            throw new IllegalArgumentException("targetBytes must be > 0, was " + targetBytes);
        }
        Objects.requireNonNull(lastGoodSnapshot, "lastGoodSnapshot");
        Objects.requireNonNull(lastGoodAge, "lastGoodAge");
        Objects.requireNonNull(lastInterval, "lastInterval");
        if (consecutiveFailures < 0 || totalFailures < consecutiveFailures) {
            throw new IllegalArgumentException("failures must satisfy 0 <= consecutiveFailures <= totalFailures, were "
                    + consecutiveFailures + " and " + totalFailures);
        }
        Objects.requireNonNull(lastFailure, "lastFailure");
        pressureSignals = TargetDecision.immutableSignals(pressureSignals);
        plannerSettings = Collections.unmodifiableMap(new TreeMap<>(
                Objects.requireNonNull(plannerSettings, "plannerSettings")));
        privateBytesByPid = Collections.unmodifiableMap(new TreeMap<>(
                Objects.requireNonNull(privateBytesByPid, "privateBytesByPid")));
        Objects.requireNonNull(role, "role");
    }

    /** The same state, polled in {@code polledAs}. */
    public BrokerState as(BrokerRole polledAs) {
        return new BrokerState(mode, targetBytes, lastGoodSnapshot, lastGoodAge, lastInterval, consecutiveFailures,
                totalFailures, lastFailure, pressureSignals, plannerSettings, privateBytesByPid, polledAs);
    }
}

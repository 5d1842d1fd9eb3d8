package io.memogate.broker;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * One step of {@link TargetPolicy}.
 *
 * @param targetBytes    the new compile-memory target
 * @param rawTargetBytes the target the server's current state allows, before smoothing
 * @param signals        the pressure signals that fired; empty when none did
 */
public record TargetDecision(long targetBytes, long rawTargetBytes, Set<PressureSignal> signals) {

    public TargetDecision {
        if (targetBytes <= 0) {
            throw new IllegalArgumentException("targetBytes must be > 0, was " + targetBytes);
        }
        if (rawTargetBytes <= 0) {
            throw new IllegalArgumentException("rawTargetBytes must be > 0, was " + rawTargetBytes);
        }
        signals = immutableSignals(signals);
    }

    static Set<PressureSignal> immutableSignals(Set<PressureSignal> signals) {
        Objects.requireNonNull(signals, "signals");
        EnumSet<PressureSignal> copy = EnumSet.noneOf(PressureSignal.class);
        copy.addAll(signals);
        return Collections.unmodifiableSet(copy);
    }
}

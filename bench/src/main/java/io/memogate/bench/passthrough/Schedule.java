package io.memogate.bench.passthrough;

import io.memogate.bench.targets.TargetKind;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The order targets run in within a round. Consecutive runs share the machine's state (page cache,
 * CPU frequency, whatever else the other tenants do), so the start of the order rotates by one each
 * round: with as many rounds as targets, each target goes first once and follows each other target once.
 */
public record Schedule(List<TargetKind> targets) {

    public Schedule {
        targets = List.copyOf(targets);
    }

    /** The order of round {@code round} (1-based): the targets rotated left by round - 1. */
    public List<TargetKind> order(int round) {
        if (round < 1) {
            throw new IllegalArgumentException("rounds count from 1, was " + round);
        }
        List<TargetKind> order = new ArrayList<>(targets);
        Collections.rotate(order, -((round - 1) % Math.max(1, targets.size())));
        return List.copyOf(order);
    }
}

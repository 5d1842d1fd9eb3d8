package io.memogate.broker.probe.postgres;

import java.util.Optional;

import io.memogate.broker.probe.IoCounters;

/** Cumulative counters of one poll; see {@link io.memogate.broker.probe.MemorySnapshot} for each. */
record CumulativeStatistics(long tempBytes, long blocksRead, long blocksHit, Optional<IoCounters> io) {
}

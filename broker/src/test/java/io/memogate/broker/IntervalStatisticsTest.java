package io.memogate.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.memogate.broker.probe.IoCounters;
import io.memogate.broker.probe.MemorySnapshot;

class IntervalStatisticsTest {

    @Test
    void theIntervalIsTheDifferenceOfTheCumulativeCounters() {
        MemorySnapshot earlier = new SnapshotBuilder().at(1_000_000_000L).counters(100, 10, 90).io(5, 6, 7).build();
        MemorySnapshot later = new SnapshotBuilder().at(3_000_000_000L).counters(2100, 30, 170).io(8, 6, 9).build();

        IntervalStatistics interval = IntervalStatistics.between(earlier, later).orElseThrow();

        assertThat(interval).isEqualTo(new IntervalStatistics(2_000_000_000L, 2000, 20, 80,
                Optional.of(new IoCounters(3, 0, 2))));
        assertThat(interval.spilledBytesPerSecond()).isCloseTo(1000.0, within(1e-9));
        assertThat(interval.hitRatio()).hasValue(0.8);
    }

    @Test
    void aStatisticsResetMakesTheIntervalUnknownRatherThanZero() {
        MemorySnapshot earlier = new SnapshotBuilder().at(0).counters(5000, 10, 90).build();
        MemorySnapshot reset = new SnapshotBuilder().at(1_000_000_000L).counters(0, 1, 2).build();

        assertThat(IntervalStatistics.between(earlier, reset)).isEmpty();
    }

    @Test
    void noElapsedTimeMeansNoInterval() {
        MemorySnapshot snapshot = new SnapshotBuilder().at(7).build();

        assertThat(IntervalStatistics.between(snapshot, snapshot)).isEmpty();
    }

    @Test
    void anIntervalWithoutBlockAccessesHasNoHitRatio() {
        assertThat(new IntervalStatistics(1, 0, 0, 0, Optional.empty()).hitRatio()).isEmpty();
    }
}

package io.memogate.broker;

import static io.memogate.broker.SnapshotBuilder.GIB;
import static io.memogate.broker.SnapshotBuilder.MIB;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.memogate.broker.probe.MemorySnapshot;
import io.memogate.broker.probe.PressureCounters;

class TargetPolicyTest {

    private static final long SECOND = 1_000_000_000L;

    /**
     * A 16 GiB host with a 4 GiB cache; each running query may take 128 MiB (PostgreSQL: work_mem 64 MiB,
     * hash tables twice that).
     */
    private final BrokerSettings settings = BrokerSettings.builder("jdbc:postgresql://db/postgres", "monitor", null)
            .hostMemoryBytes(16 * GIB).build();
    private final TargetPolicy policy = new TargetPolicy(settings);

    private static final long PER_QUERY = 128 * MIB;

    private static SnapshotBuilder server() {
        return new SnapshotBuilder().cache(4 * GIB).running(20, 10, PER_QUERY);
    }

    /** spare = 16384 - 4096 - 10 x 64 x 2 = 11008 MiB; half of it. */
    private static final long RAW = 5504 * MIB;

    @Test
    void withoutPressureTheTargetIsHalfTheSpareMemory() {
        MemorySnapshot current = server().build();

        TargetDecision first = policy.next(OptionalLong.empty(), Optional.empty(), Optional.empty(), current);
        TargetDecision steady = policy.next(OptionalLong.of(RAW), quiet(), quiet(), current);

        assertThat(first).isEqualTo(new TargetDecision(RAW, RAW, Set.of()));
        assertThat(steady.targetBytes()).isEqualTo(RAW);
        assertThat(steady.signals()).isEmpty();
    }

    @Test
    void theTargetIsAtMostTheShareOfSpareMemoryAndNeverBelowTheMinimum() {
        for (int active = 0; active <= 200; active += 10) {
            MemorySnapshot current = server().running(200, active, PER_QUERY).build();
            double spare = 16.0 * GIB - 4.0 * GIB - active * 64.0 * MIB * 2.0;

            long target = policy.next(OptionalLong.empty(), Optional.empty(), Optional.empty(), current).targetBytes();

            assertThat(target).as("target with %d running queries", active)
                    .isEqualTo(Math.max(settings.minimumTargetBytes(), (long) (0.5 * Math.max(0, spare))));
        }
        MemorySnapshot crowded = server().running(200, 200, PER_QUERY).build();
        assertThat(policy.rawTarget(crowded)).as("spare memory is negative").isEqualTo(settings.minimumTargetBytes());
    }

    @Test
    void hostMemoryComesFromMeminfoWhenNotConfiguredAndTheStaticTargetWhenUnknown() {
        TargetPolicy unconfigured = new TargetPolicy(settings.toBuilder().hostMemoryBytes(OptionalLong.empty()).build());

        assertThat(unconfigured.rawTarget(server().meminfo(16 * GIB, 12 * GIB).build())).isEqualTo(RAW);
        assertThat(unconfigured.rawTarget(server().build())).as("remote, host memory unknown")
                .isEqualTo(settings.staticTargetBytes());
    }

    @Test
    void risingSpillsShrinkTheTargetByAQuarter() {
        Optional<IntervalStatistics> before = interval(10 * MIB, 0, 1000);
        Optional<IntervalStatistics> last = interval(20 * MIB, 0, 1000);

        TargetDecision decision = policy.next(OptionalLong.of(RAW), before, last, server().build());

        assertThat(decision.signals()).containsExactly(PressureSignal.SPILLS_RISING);
        assertThat(decision.targetBytes()).isEqualTo((long) (RAW * 0.75));
    }

    @Test
    void spillsAreComparedPerSecondSoALongerIntervalWithTheSameRateIsNoSignal() {
        Optional<IntervalStatistics> before =
                Optional.of(new IntervalStatistics(SECOND, 10 * MIB, 0, 1000, Optional.empty()));
        Optional<IntervalStatistics> last =
                Optional.of(new IntervalStatistics(3 * SECOND, 30 * MIB, 0, 3000, Optional.empty()));

        assertThat(policy.next(OptionalLong.of(RAW), before, last, server().build()).signals()).isEmpty();
    }

    @Test
    void aHitRatioFallingByMoreThanFivePointsShrinksTheTarget() {
        Optional<IntervalStatistics> before = interval(0, 1, 99);      // 99%
        Optional<IntervalStatistics> fourPoints = interval(0, 5, 95);  // 95%
        Optional<IntervalStatistics> tenPoints = interval(0, 11, 89);  // 89%

        assertThat(policy.next(OptionalLong.of(RAW), before, fourPoints, server().build()).signals()).isEmpty();
        TargetDecision decision = policy.next(OptionalLong.of(RAW), before, tenPoints, server().build());
        assertThat(decision.signals()).containsExactly(PressureSignal.HIT_RATIO_FALLING);
        assertThat(decision.targetBytes()).isEqualTo((long) (RAW * 0.75));
    }

    @Test
    void littleAvailableMemoryOnTheHostShrinksTheTarget() {
        MemorySnapshot scarce = server().meminfo(16 * GIB, GIB).build();    // 6% available
        MemorySnapshot ample = server().meminfo(16 * GIB, 2 * GIB).build();  // 12.5% available

        assertThat(policy.next(OptionalLong.of(RAW), quiet(), quiet(), ample).signals()).isEmpty();
        TargetDecision decision = policy.next(OptionalLong.of(RAW), quiet(), quiet(), scarce);
        assertThat(decision.signals()).containsExactly(PressureSignal.MEMORY_NEAR_LIMIT);
        assertThat(decision.targetBytes()).isEqualTo((long) (RAW * 0.75));
    }

    @Test
    void serverProcessesHoldingNearlyAllHostMemoryShrinkTheTarget() {
        // 4 GiB cache + 11 GiB retained = 15 GiB > 90% of 16 GiB; 4 + 10 = 14 GiB is 87.5%.
        MemorySnapshot fat = server().retainedBytes(Map.of(1000, 6 * GIB, 1001, 5 * GIB)).build();
        MemorySnapshot lean = server().retainedBytes(Map.of(1000, 6 * GIB, 1001, 4 * GIB)).build();

        assertThat(policy.next(OptionalLong.of(RAW), quiet(), quiet(), lean).signals()).isEmpty();
        assertThat(policy.next(OptionalLong.of(RAW), quiet(), quiet(), fat).signals())
                .containsExactly(PressureSignal.MEMORY_NEAR_LIMIT);
    }

    @Test
    void pressureNeverTakesTheTargetBelowTheMinimum() {
        MemorySnapshot scarce = server().meminfo(16 * GIB, GIB).build();
        long target = RAW;
        for (int poll = 0; poll < 30; poll++) {
            target = policy.next(OptionalLong.of(target), quiet(), quiet(), scarce).targetBytes();
        }
        assertThat(target).isEqualTo(settings.minimumTargetBytes());
    }

    @Test
    void underPressureTheTargetIsNeverAboveRaw() {
        // Many queries started: raw fell to the minimum; shrinking 5504 MiB by a quarter would stay above it.
        MemorySnapshot crowdedAndScarce = server().running(200, 200, PER_QUERY).meminfo(16 * GIB, GIB).build();

        assertThat(policy.next(OptionalLong.of(RAW), quiet(), quiet(), crowdedAndScarce).targetBytes())
                .isEqualTo(settings.minimumTargetBytes());
    }

    @Test
    void recoveryRisesByAtMostFivePercentOfRawPerPoll() {
        MemorySnapshot current = server().build();
        long target = settings.minimumTargetBytes();
        int polls = 0;
        while (target < RAW) {
            long next = policy.next(OptionalLong.of(target), quiet(), quiet(), current).targetBytes();
            assertThat(next - target).isLessThanOrEqualTo((long) Math.ceil(0.05 * RAW));
            target = next;
            polls++;
        }
        assertThat(target).isEqualTo(RAW);
        assertThat(polls).isEqualTo((int) Math.ceil((RAW - settings.minimumTargetBytes()) / (0.05 * RAW)));
    }

    @Test
    void aTargetAboveRawFallsToRawAtOnce() {
        MemorySnapshot busier = server().running(40, 40, PER_QUERY).build();   // spare 16384 - 4096 - 5120 MiB
        long raw = 3584 * MIB;

        assertThat(policy.next(OptionalLong.of(RAW), quiet(), quiet(), busier).targetBytes()).isEqualTo(raw);
    }

    @Test
    void withoutTwoKnownIntervalsNoRateSignalFires() {
        Optional<IntervalStatistics> spilling = interval(100 * MIB, 50, 50);

        assertThat(policy.signals(Optional.empty(), spilling, server().build())).isEmpty();
        assertThat(policy.signals(spilling, Optional.empty(), server().build())).isEmpty();
    }

    @Test
    void aServerCeilingBelowTheHostIsWhatTheTargetIsAShareOf() {
        // SQL Server on the 16 GiB host, grown to 8 GiB: spare = 8192 - 4096 - 1280 = 2816 MiB; half of it.
        assertThat(policy.rawTarget(server().ceiling(8 * GIB).build())).isEqualTo(1408 * MIB);
        assertThat(policy.rawTarget(server().ceiling(32 * GIB).build())).as("a ceiling above the host")
                .isEqualTo(RAW);
        TargetPolicy remote = new TargetPolicy(settings.toBuilder().hostMemoryBytes(OptionalLong.empty()).build());
        assertThat(remote.rawTarget(server().ceiling(8 * GIB).build())).as("host unknown, the ceiling alone")
                .isEqualTo(1408 * MIB);
    }

    @Test
    void anyWaitAtTheServersCompileGatesShrinksTheTarget() {
        Optional<IntervalStatistics> oneWait = waits(1, 0);
        Optional<IntervalStatistics> none = waits(0, 0);

        TargetDecision decision = policy.next(OptionalLong.of(RAW), Optional.empty(), oneWait, server().build());

        assertThat(decision.signals()).containsExactly(PressureSignal.COMPILE_WAITS);
        assertThat(decision.targetBytes()).isEqualTo((long) (RAW * 0.75));
        assertThat(policy.next(OptionalLong.of(RAW), none, none, server().build()).signals()).isEmpty();
    }

    @Test
    void longerWaitsForMemoryThanTheIntervalBeforeShrinkTheTarget() {
        TargetDecision rising = policy.next(OptionalLong.of(RAW), waits(0, 200), waits(0, 900), server().build());
        TargetDecision easing = policy.next(OptionalLong.of(RAW), waits(0, 900), waits(0, 200), server().build());

        assertThat(rising.signals()).containsExactly(PressureSignal.MEMORY_WAITS_RISING);
        assertThat(easing.signals()).isEmpty();
    }

    @Test
    void aWaitCounterThatWentBackIsNoInterval() {
        MemorySnapshot before = withWaits(server().at(0).build(), 50, 9000);
        MemorySnapshot restarted = withWaits(server().at(SECOND).build(), 3, 100);

        IntervalStatistics interval = IntervalStatistics.between(before, restarted).orElseThrow();

        assertThat(interval.compileWaits()).isEmpty();
        assertThat(interval.memoryWaitMillis()).isEmpty();
    }

    private static MemorySnapshot withWaits(MemorySnapshot snapshot, long compileWaits, long memoryWaitMillis) {
        PressureCounters p = snapshot.pressure();
        return new MemorySnapshot(snapshot.takenAtNanos(), snapshot.version(), snapshot.memory(),
                snapshot.connections(), new PressureCounters(p.spilledBytes(),
                        p.cacheMisses(), p.cacheHits(), p.io(), OptionalLong.of(compileWaits),
                        OptionalLong.of(memoryWaitMillis)), snapshot.plannerSettings(), snapshot.host());
    }

    private static Optional<IntervalStatistics> waits(long compileWaits, long memoryWaitMillis) {
        return Optional.of(new IntervalStatistics(SECOND, 0, 0, 1000, Optional.empty(), OptionalLong.of(compileWaits),
                OptionalLong.of(memoryWaitMillis)));
    }

    private static Optional<IntervalStatistics> quiet() {
        return interval(0, 0, 1000);
    }

    private static Optional<IntervalStatistics> interval(long spilledBytes, long cacheMisses, long cacheHits) {
        return Optional.of(new IntervalStatistics(SECOND, spilledBytes, cacheMisses, cacheHits, Optional.empty()));
    }
}

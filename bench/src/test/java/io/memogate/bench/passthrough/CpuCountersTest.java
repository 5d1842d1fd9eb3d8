package io.memogate.bench.passthrough;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.memogate.bench.report.MachineLoad;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class CpuCountersTest {

    /** /proc/stat of a 2-CPU machine: user nice system idle iowait irq softirq steal guest guest_nice. */
    private static final String BEFORE = """
            cpu  1000 10 500 8000 40 5 45 100 0 0
            cpu0 500 5 250 4000 20 3 22 50 0 0
            cpu1 500 5 250 4000 20 2 23 50 0 0
            intr 123456 0 0
            ctxt 987654
            """;

    @Test
    void busyIsUserNiceSystemAndInterruptsIdleCountsIoWaitAndTheCpusAreCounted() {
        CpuCounters counters = CpuCounters.parse(BEFORE);

        assertThat(counters).isEqualTo(new CpuCounters(1000 + 10 + 500 + 5 + 45, 8000 + 40, 100, 2));
    }

    @Test
    void aRunsLoadIsTheShareOfEachKindOfTickInTheDifference() {
        CpuCounters before = CpuCounters.parse(BEFORE);
        // 1,200 ticks later: 900 busy, 240 idle, 60 stolen by the hypervisor.
        CpuCounters after = new CpuCounters(before.busy() + 900, before.idle() + 240, before.steal() + 60, 2);

        MachineLoad load = after.since(before, Duration.ofSeconds(6)).orElseThrow();

        assertThat(load.busyShare()).isEqualTo(0.75);
        assertThat(load.idleShare()).isEqualTo(0.2);
        // 2 CPUs x 6 s x 75% = 9 s of CPU: what pgbench, the server and the relay spent together.
        assertThat(load.busyMicros()).isCloseTo(9_000_000, within(0.5));
    }

    @Test
    void noTickBetweenTheTwoReadingsGivesNoLoadRatherThanAnIdleMachine() {
        CpuCounters counters = CpuCounters.parse(BEFORE);

        assertThat(counters.since(counters, Duration.ofMillis(1))).isEmpty();
    }

    @Test
    void aFileWithoutTheAggregateLineFirstIsRefused() {
        assertThatThrownBy(() -> CpuCounters.parse("cpu0 1 2 3 4 5 6 7 8\n"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("aggregate cpu line");
    }
}

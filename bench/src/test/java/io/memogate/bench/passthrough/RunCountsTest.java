package io.memogate.bench.passthrough;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.bench.pgbench.QueryMode;
import io.memogate.bench.targets.TargetKind;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The readers of the counts (perf's CSV, a thread dump, /proc's status) and their per-transaction figures. */
class RunCountsTest {

    @Test
    void perfStatCsvGivesEachSyscallKindAndLeavesOutWhatItCouldNotCount() {
        String csv = """
                # started on Sat Nov 28 05:26:36 2026

                1436950,,raw_syscalls:sys_enter,5748375747,100.00,249.958,K/sec
                528201,,syscalls:sys_enter_recvfrom,5748763207,100.00,91.881,K/sec
                0,,syscalls:sys_enter_writev,5748763207,100.00,0.000,/sec
                <not counted>,,syscalls:sys_enter_futex,0,0.00,,
                """;

        assertThat(SyscallCounter.parse(csv)).containsExactlyInAnyOrderEntriesOf(
                Map.of(SyscallCounter.ALL, 1436950L, "recvfrom", 528201L, "writev", 0L));
    }

    @Test
    void aThreadDumpsAllocatedFiguresAreSummedInBytes() {
        String dump = """
                "main" #3 [18947] prio=5 os_prio=0 cpu=1374.43ms elapsed=30.30s allocated=82538K defined_classes=4379
                "Reference Handler" #12 [18956] daemon prio=10 cpu=0.84ms elapsed=30.07s allocated=64B defined_classes=0
                "memogate-loop-1" #40 [19001] prio=5 cpu=99.0ms elapsed=30.07s allocated=2M defined_classes=0
                """;

        assertThat(AllocationCounter.sum(dump)).isEqualTo(82538L * 1024 + 64 + 2L * 1024 * 1024);
    }

    @Test
    void statusLinesAreReadByTheirExactName() {
        String status = "Name:\tjava\nvoluntary_ctxt_switches:\t120\nnonvoluntary_ctxt_switches:\t7\n";

        assertThat(ThreadSwitches.field(status, "voluntary_ctxt_switches:")).isEqualTo(120);
        assertThat(ThreadSwitches.field(status, "nonvoluntary_ctxt_switches:")).isEqualTo(7);
        assertThat(ThreadSwitches.field(status, "Threads:")).isZero();
    }

    @Test
    void thisProcessCountsItsOwnSwitchesAndAllocation() throws Exception {
        long pid = ProcessHandle.current().pid();
        OptionalLong before = AllocationCounter.allocated(pid);
        byte[][] garbage = new byte[64][];
        for (int i = 0; i < garbage.length; i++) {
            garbage[i] = new byte[16 * 1024];
        }
        OptionalLong after = AllocationCounter.allocated(pid);

        assertThat(garbage[63]).hasSize(16 * 1024);
        assertThat(after.getAsLong() - before.getAsLong()).isGreaterThanOrEqualTo(64L * 16 * 1024);
        ThreadSwitches switches = ThreadSwitches.of(pid);
        assertThat(switches.voluntary() + switches.involuntary()).isPositive();
    }

    @Test
    void perTransactionFiguresSumTheKindsAskedForAndAreEmptyWithoutTransactions() {
        RunCounts counts = RunCounts.of(Map.of(SyscallCounter.ALL, 5000L, "recvfrom", 2000L, "read", 10L), 1000,
                new ThreadSwitches(1200, 300), 1000, OptionalLong.of(730_000), 1000);

        assertThat(counts.syscallsPerTransaction(SyscallCounter.READS)).hasValue(2.01);
        assertThat(counts.syscallsPerTransaction(SyscallCounter.WAITS)).isEmpty();
        assertThat(counts.switchesPerTransaction()).hasValue(1.5);
        assertThat(counts.allocatedPerTransaction()).hasValue(730.0);
    }

    @Test
    void eachCountIsDividedByTheTransactionsOfItsOwnSpanAndUnknownSpansGiveNothing() {
        RunCounts counts = RunCounts.of(Map.of(SyscallCounter.ALL, 5000L), 1000, new ThreadSwitches(1200, 300), 0,
                OptionalLong.of(730_000), 500);

        assertThat(counts.syscallsPerTransaction(SyscallCounter.ALL)).hasValue(5.0);
        assertThat(counts.switchesPerTransaction()).isEmpty();
        assertThat(counts.allocatedPerTransaction()).hasValue(1460.0);
    }

    @Test
    void theCostReportShowsTheMedianOfTheRoundsPerClientCount() {
        RunCounts counts = RunCounts.of(Map.of(SyscallCounter.ALL, 5000L), 1000, new ThreadSwitches(1000, 0), 1000,
                OptionalLong.empty(), 1000);
        List<CountedRun> runs = List.of(
                new CountedRun(64, QueryMode.SIMPLE, 1, TargetKind.PGBOUNCER, 1000, 900, OptionalDouble.of(30), Optional.of(counts), Optional.empty()),
                new CountedRun(16, QueryMode.SIMPLE, 1, TargetKind.PGBOUNCER, 1000, 1000, OptionalDouble.of(20), Optional.of(counts), Optional.empty()),
                new CountedRun(16, QueryMode.SIMPLE, 2, TargetKind.PGBOUNCER, 1000, 1200, OptionalDouble.of(24), Optional.empty(), Optional.empty()),
                new CountedRun(16, QueryMode.SIMPLE, 3, TargetKind.PGBOUNCER, 1000, 1100, OptionalDouble.of(22), Optional.of(counts), Optional.empty()));

        List<String> lines = new CostReport(runs, CountWindow.STEADY).text().lines().toList();

        assertThat(lines).hasSize(3);
        assertThat(lines.get(1).split("\\s+")).containsExactly("16", "simple", "pgbouncer", "1100", "22.0", "5.00",
                "-", "-", "-", "-", "1.00", "0.00", "-");
        assertThat(lines.get(2)).startsWith("64");
    }
}

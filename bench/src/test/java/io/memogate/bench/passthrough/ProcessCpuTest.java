package io.memogate.bench.passthrough;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.memogate.bench.pgbench.QueryMode;
import io.memogate.bench.targets.TargetKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class ProcessCpuTest {

    /** A /proc/PID/stat line of this kernel's layout with {@code utime} and {@code stime} in fields 14 and 15. */
    private static String stat(long pid, String command, long utime, long stime) {
        return pid + " (" + command + ") S 1 " + pid + " " + pid + " 0 -1 4194560 1290 0 0 0 " + utime + " " + stime
                + " 0 0 20 0 1 0 4242 12345678 900 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n";
    }

    @Test
    void aStatLineGivesItsCommandAndItsUserAndSystemTicksEvenWhenTheCommandHoldsParentheses() {
        assertThat(ProcessCpu.parseStat(stat(812, "postgres", 1500, 320)))
                .contains(new ProcessCpu.Entry("postgres", 1500, 320));
        assertThat(ProcessCpu.parseStat(stat(99, "a (b) c", 7, 3))).contains(new ProcessCpu.Entry("a (b) c", 7, 3));
        assertThat(ProcessCpu.parseStat("812 (postgres) S 1 2")).isEmpty();
        assertThat(ProcessCpu.parseStat("garbage")).isEmpty();
    }

    @Test
    void aReadingOfThisMachineHoldsThisProcessUnderItsCommandName() {
        assumeTrue(Files.isReadable(Path.of("/proc/self/stat")), "no /proc here");

        ProcessCpu reading = ProcessCpu.read().orElseThrow();

        assertThat(reading.processes()).containsKey(ProcessHandle.current().pid());
        assertThat(reading.processes().get(ProcessHandle.current().pid()).command()).isEqualTo("java");
        assertThat(reading.machineBusyTicks()).isPositive();
    }

    @Test
    void theMachinesCpuIsSplitByProcessAndWhatNoProcessAccountsForIsLeftOver() {
        ProcessCpu before = new ProcessCpu(Map.of(
                10L, new ProcessCpu.Entry("pgbench", 100, 0),
                11L, new ProcessCpu.Entry("postgres", 50, 0),
                12L, new ProcessCpu.Entry("postgres", 70, 0),
                13L, new ProcessCpu.Entry("pgbouncer", 30, 10),
                14L, new ProcessCpu.Entry("java", 900, 0),
                15L, new ProcessCpu.Entry("sshd", 5, 0),
                16L, new ProcessCpu.Entry("postgres", 30, 0)), 10_000);
        ProcessCpu after = new ProcessCpu(Map.of(
                10L, new ProcessCpu.Entry("pgbench", 160, 0),
                11L, new ProcessCpu.Entry("postgres", 90, 0),
                12L, new ProcessCpu.Entry("postgres", 100, 0),
                13L, new ProcessCpu.Entry("pgbouncer", 45, 20),
                14L, new ProcessCpu.Entry("java", 902, 0),
                15L, new ProcessCpu.Entry("sshd", 6, 0),
                // started in the window: its ticks cannot be told apart from what it used before, so not counted
                17L, new ProcessCpu.Entry("postgres", 400, 0)), 10_200);

        ProcessCpu.CpuSplit split = after.since(before, Set.of(13L), 14, 2_000);

        assertThat(split.pgbench()).isEqualTo(60);
        assertThat(split.server()).isEqualTo(70);
        assertThat(split.relay()).isEqualTo(25);
        assertThat(split.relayUser()).as("of the relay's 25 ticks, 15 in user mode").isEqualTo(15);
        assertThat(split.benchmark()).isEqualTo(2);
        assertThat(split.others()).isEqualTo(1);
        assertThat(split.machineBusy()).isEqualTo(200);
        assertThat(split.unattributed()).isEqualTo(42);
        // 60 ticks of 10 ms over 2,000 transactions
        assertThat(split.microsPerTransaction(split.pgbench())).isEqualTo(300.0);
    }

    @Test
    void anInJvmRelayIsTheBenchmarksOwnProcess() {
        ProcessCpu before = new ProcessCpu(Map.of(14L, new ProcessCpu.Entry("java", 900, 0)), 0);
        ProcessCpu after = new ProcessCpu(Map.of(14L, new ProcessCpu.Entry("java", 950, 0)), 100);

        ProcessCpu.CpuSplit split = after.since(before, Set.of(14L), 14, 100);

        assertThat(split.relay()).isEqualTo(50);
        assertThat(split.benchmark()).isZero();
    }

    /** PgBouncer in front of the shipped proxy: both relay, and both are the relay's CPU. */
    @Test
    void chainedRelaysAreTheRelayTogether() {
        ProcessCpu before = new ProcessCpu(Map.of(13L, new ProcessCpu.Entry("pgbouncer", 30, 10),
                18L, new ProcessCpu.Entry("java", 400, 100), 14L, new ProcessCpu.Entry("java", 900, 0)), 0);
        ProcessCpu after = new ProcessCpu(Map.of(13L, new ProcessCpu.Entry("pgbouncer", 45, 20),
                18L, new ProcessCpu.Entry("java", 440, 120), 14L, new ProcessCpu.Entry("java", 901, 0)), 100);

        ProcessCpu.CpuSplit split = after.since(before, Set.of(13L, 18L), 14, 100);

        assertThat(split.relay()).isEqualTo(85);
        assertThat(split.relayUser()).isEqualTo(55);
        assertThat(split.benchmark()).isEqualTo(1);
        assertThat(split.others()).isZero();
    }

    @Test
    void theCostReportSplitsTheMachinesCpuPerTransactionAsTheMedianOfTheRounds() {
        List<CountedRun> runs = List.of(
                run(1, new ProcessCpu.CpuSplit(60, 70, 25, 10, 2, 1, 200, 2_000)),
                run(2, new ProcessCpu.CpuSplit(80, 90, 35, 14, 2, 1, 260, 2_000)),
                run(3, new ProcessCpu.CpuSplit(40, 50, 15, 6, 2, 1, 140, 2_000)));

        List<String> lines = new CostReport(runs, CountWindow.STEADY).splitText().lines().toList();

        assertThat(lines).hasSize(2);
        assertThat(lines.get(1).split("\\s+")).containsExactly("256", "prepared", "pgbouncer", "1000.0", "300.0",
                "350.0", "125.0", "50.0", "10.0", "5.0", "210.0");
        assertThat(new CostReport(runs, CountWindow.STEADY).markdown()).contains("## Where the machine's CPU went");
    }

    @Test
    void eachRunsRelayCpuAndItsUserModePartAreALineOfTheCsv() {
        CountedRun read = run(1, new ProcessCpu.CpuSplit(60, 70, 25, 10, 2, 1, 200, 2_000));
        CountedRun unsplit = new CountedRun(16, QueryMode.SIMPLE, 2, TargetKind.NETTY_RELAY, 1000, 987.0,
                OptionalDouble.empty(), Optional.empty(), Optional.empty());

        assertThat(new CostReport(List.of(read, unsplit), CountWindow.STEADY).csv().lines()).containsExactly(
                "clients,mode,round,target,tps,relay_cpu_us_per_tx,relay_user_us_per_tx",
                "256,prepared,1,pgbouncer,1000.0,20.00,50.00",
                "16,simple,2,netty-relay,987.0,,");
    }

    @Test
    void withoutASplitTheReportLeavesTheTableOut() {
        CountedRun run = new CountedRun(16, QueryMode.SIMPLE, 1, TargetKind.PGBOUNCER, 1000, 1000,
                OptionalDouble.of(20), Optional.empty(), Optional.empty());

        assertThat(new CostReport(List.of(run), CountWindow.STEADY).splitText()).isEmpty();
        assertThat(new CostReport(List.of(run), CountWindow.STEADY).markdown()).doesNotContain("machine's CPU went");
    }

    private static CountedRun run(int round, ProcessCpu.CpuSplit split) {
        return new CountedRun(256, QueryMode.PREPARED, round, TargetKind.PGBOUNCER, 2_000, 1_000,
                OptionalDouble.of(20), Optional.empty(), Optional.of(split));
    }
}

package io.memogate.bench.report;

import static io.memogate.bench.targets.TargetKind.DIRECT;
import static io.memogate.bench.targets.TargetKind.HAPROXY;
import static io.memogate.bench.targets.TargetKind.MEMOGATE;
import static io.memogate.bench.targets.TargetKind.MEMOGATE_GATED;
import static io.memogate.bench.targets.TargetKind.PGBOUNCER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.memogate.bench.pgbench.PgbenchResult;
import io.memogate.bench.pgbench.QueryMode;
import io.memogate.bench.targets.TargetKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ReportWriterTest {

    @Test
    void mediansRatiosAndCpuPerModeAndTheGoalsWithAFailedRunAndASkippedTarget() {
        List<Measurement> runs = new ArrayList<>();
        add(runs, DIRECT, 0, 1000, 1200, 1100);
        add(runs, MEMOGATE, 2100, 700, 600, 650); // 2.1 s of CPU for 7000, 6000, 6500 transactions
        add(runs, HAPROXY, 1400, 690, 700, 0); // round 3 failed
        BenchRecord record = new BenchRecord(List.of("load"), List.of("machine"), List.of(QueryMode.SIMPLE), 3,
                List.of(new TargetInfo(DIRECT, false, "PostgreSQL"), new TargetInfo(MEMOGATE, false, "Memogate"),
                        new TargetInfo(PGBOUNCER, true, "not installed: skipped"), new TargetInfo(HAPROXY, false, "HAProxy")),
                List.of(List.of("direct", "memogate", "haproxy")), runs);

        Summary summary = new Summary(record);
        assertThat(summary.median(QueryMode.SIMPLE, DIRECT)).hasValue(1100);
        assertThat(summary.median(QueryMode.SIMPLE, HAPROXY)).hasValue(695); // of the two successful runs
        assertThat(summary.ratioToDirect(QueryMode.SIMPLE, MEMOGATE)).hasValue(650.0 / 1100);
        assertThat(summary.medianCpuPerTransaction(QueryMode.SIMPLE, MEMOGATE)).hasValue(2_100_000.0 / 6500);
        assertThat(summary.median(QueryMode.SIMPLE, PGBOUNCER)).isEmpty();
        assertThat(record.allSucceeded()).isFalse();

        String text = new ReportWriter(record).text();
        assertThat(text).contains("""
                target     round 1  round 2  round 3   median  ratio to direct  proxy CPU us/tx       rounds  machine CPU us/tx  idle
                direct        1000     1200     1100     1100             1.00                -            -                  -     -
                memogate       700      600      650      650             0.59            323.1  300.0-350.0                  -     -
                pgbouncer        -        -        -  skipped                -                -            -                  -     -
                haproxy        690      700   FAILED      695             0.63            201.4  200.0-202.9                  -     -
                """.replace("\n", System.lineSeparator()));
        assertThat(text).contains("round 3, haproxy: exit 2");
        assertThat(text).containsPattern("memogate / pgbouncer +n/a +>= 1\\.15")
                .containsPattern("memogate / haproxy +0\\.935 not met, rounds 0\\.857-1\\.014 +>= 0\\.95"); // 650 / 695
        // Within rounds 1 and 2 (round 3 failed for haproxy): 600 / 700 and 700 / 690.
        assertThat(summary.roundRatios(QueryMode.SIMPLE, MEMOGATE, HAPROXY)).containsExactly(600.0 / 700, 700.0 / 690);

        String csv = new ReportWriter(record).csv();
        assertThat(csv).startsWith("mode,round,position,target,status,tps,transactions,tps_basis,target_cpu_ms,"
                        + "machine_busy,machine_idle,detail\n")
                .contains("simple,3,3,haproxy,failed,,,,1400.0,,,exit 2\n")
                .contains("simple,1,2,memogate,ok,700.000000,7000,without initial connection time,2100.0,,,\n")
                .contains("simple,1,1,direct,ok,1000.000000,10000,without initial connection time,,,,\n");
    }

    @Test
    void theWholeMachinesCpuAndWhatBeingAheadOfPgBouncerLeavesARelayToSpend() {
        List<Measurement> runs = new ArrayList<>();
        // PgBouncer: 10,000 transactions a run, 1 s of its own CPU (100 us/tx), the machine 30% busy
        // over 2 CPUs x 10 s = 6 s of CPU (600 us/tx): pgbench and the server took 500 us/tx.
        add(runs, PGBOUNCER, 1000, machine(0.30), 1000, 1000, 1000);
        add(runs, MEMOGATE, 1200, machine(0.36), 1000, 1100, 900);
        BenchRecord record = new BenchRecord(List.of("load"), List.of("machine"), List.of(QueryMode.SIMPLE), 3,
                List.of(new TargetInfo(PGBOUNCER, false, "PgBouncer"), new TargetInfo(MEMOGATE, false, "Memogate")),
                List.of(List.of("pgbouncer", "memogate")), runs);

        Summary summary = new Summary(record);
        assertThat(summary.medianMachineCpuPerTransaction(QueryMode.SIMPLE, PGBOUNCER)).hasValue(600);
        assertThat(summary.medianIdleShare(QueryMode.SIMPLE, PGBOUNCER)).hasValue(0.7);
        // 1.15 x PgBouncer's throughput: the machine may spend 600 / 1.15 = 521.7 us/tx, 21.7 of them the relay's.
        assertThat(summary.relayBudget(QueryMode.SIMPLE, PGBOUNCER, 1.15).getAsDouble()).isCloseTo(21.74, within(0.01));
        assertThat(summary.relayBudget(QueryMode.SIMPLE, PGBOUNCER, 1.25).getAsDouble()).isNegative();

        String text = new ReportWriter(record).text();
        assertThat(text).containsPattern("pgbouncer +1000 +1000 +1000 +1000 +n/a +100\\.0 +100\\.0-100\\.0 +600\\.0 +70%")
                .containsPattern("memogate +1000 +1100 +900 +1000 +n/a +120\\.0 +109\\.1-133\\.3 +720\\.0 +64%")
                .containsPattern("1\\.15 x pgbouncer +21\\.7 \\(pgbouncer: 100\\.0\\)");
        assertThat(new ReportWriter(record).markdown("bench")).contains("## What a goal leaves a relay to spend")
                .contains("| 1.15 x pgbouncer | 21.7 (pgbouncer: 100.0) |");
        assertThat(new ReportWriter(record).csv()).contains("simple,1,1,pgbouncer,ok,1000.000000,10000,"
                + "without initial connection time,1000.0,0.3000,0.7000,\n");
    }

    @Test
    void gatewaysOnAgainstOffWithoutDirectHasTheRatioRowAndNoOtherComparisons() {
        List<Measurement> runs = new ArrayList<>();
        add(runs, MEMOGATE, 0, 1000, 1100, 1200);
        add(runs, MEMOGATE_GATED, 0, 990, 1050, 1170); // median 1050 / 1100
        BenchRecord record = new BenchRecord(List.of("load"), List.of("machine"), List.of(QueryMode.SIMPLE), 3,
                List.of(new TargetInfo(MEMOGATE, false, "Memogate"),
                        new TargetInfo(MEMOGATE_GATED, false, "Memogate, gateways on")),
                List.of(List.of("memogate", "memogate-gated")), runs);

        String text = new ReportWriter(record).text();
        assertThat(text).containsPattern("memogate-gated +990 +1050 +1170 +1050 +n/a")
                .containsPattern("memogate-gated / memogate +0\\.955 not met, rounds 0\\.955-0\\.990 +>= 0\\.97")
                .doesNotContain("pgbouncer").doesNotContain("haproxy");
        assertThat(new ReportWriter(record).markdown("bench"))
                .contains("| memogate-gated / memogate | 0.955 not met, rounds 0.955-0.990 | >= 0.97 |");
        assertThat(new ReportWriter(record).csv()).contains("simple,1,2,memogate-gated,ok,990.000000,9900,");
    }

    /** Runs of one target over the rounds; tps 0 stands for a failed run, cpuMillis 0 for none measured. */
    private static void add(List<Measurement> runs, TargetKind target, long cpuMillis, double... tps) {
        add(runs, target, cpuMillis, Optional.empty(), tps);
    }

    /** As above, each run 10 s long (transactions = 10 x tps) on a machine {@code machine} busy. */
    private static void add(List<Measurement> runs, TargetKind target, long cpuMillis, Optional<MachineLoad> machine,
                            double... tps) {
        int position = runs.size() / 3 + 1;
        Optional<Duration> cpu = cpuMillis > 0 ? Optional.of(Duration.ofMillis(cpuMillis)) : Optional.empty();
        for (int round = 1; round <= tps.length; round++) {
            PgbenchResult result = tps[round - 1] > 0
                    ? new PgbenchResult.Succeeded(tps[round - 1], (long) (tps[round - 1] * 10), "without initial connection time")
                    : new PgbenchResult.Failed("exit 2");
            runs.add(new Measurement(QueryMode.SIMPLE, round, position, target, result, cpu, machine));
        }
    }

    /** Two CPUs over a 10 s run, {@code busy} of their time working and the rest idle. */
    private static Optional<MachineLoad> machine(double busy) {
        return Optional.of(new MachineLoad(Duration.ofSeconds(10), 2, busy, 1 - busy));
    }
}

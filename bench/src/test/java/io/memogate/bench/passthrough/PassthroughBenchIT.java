package io.memogate.bench.passthrough;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.bench.BenchCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real harness, shortened: an embedded PostgreSQL 18, the proxy in this JVM with and without the
 * gateways and with the server's Unix socket as its backend, Debian's pgbench, one round of 2 s with 2
 * clients against direct, memogate, memogate-gated and memogate-unix. It checks that every run produced
 * a figure and that nothing is left running; it never judges the speed.
 */
class PassthroughBenchIT {

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void oneShortRoundWithGatewaysOffAndOnReportsEveryRunAndLeavesNothingRunning(@TempDir Path output)
            throws Exception {
        runsToSuccess("passthrough", "--rounds", "1", "--seconds", "2", "--warmup", "0", "--clients", "2",
                "--threads", "2", "--scale", "1", "--targets", "direct,memogate,memogate-gated,memogate-unix",
                "--output", output.toString());
        Path report = output.resolve("report.md");
        assertThat(report).exists();
        String markdown = Files.readString(report);
        for (String mode : List.of("simple", "prepared")) {
            String section = markdown.substring(markdown.indexOf("## Query mode " + mode));
            // direct: no relay of its own, but the whole machine's CPU per transaction and idle share.
            assertThat(section).as(mode).containsPattern("\\| direct \\| \\d+ \\| \\d+ \\| 1\\.00 \\| - \\| - \\| \\d+\\.\\d \\| \\d+% \\|")
                    .containsPattern("\\| memogate \\| \\d+ \\| \\d+ \\| \\d\\.\\d\\d \\| \\d+\\.\\d \\|")
                    .containsPattern("\\| memogate-gated \\| \\d+ \\| \\d+ \\| \\d\\.\\d\\d \\| \\d+\\.\\d \\|")
                    .containsPattern("\\| memogate-unix \\| \\d+ \\| \\d+ \\| \\d\\.\\d\\d \\| \\d+\\.\\d \\|");
        }
        assertThat(markdown).containsPattern(
                "\\| memogate-gated / memogate \\| \\d\\.\\d{3} (not )?met \\| \\d\\.\\d{3} (not )?met \\| >= 0\\.97 \\|");
        assertThat(markdown).doesNotContain("| pgbouncer |").doesNotContain("| haproxy |").doesNotContain("FAILED");

        List<String> runs = Files.readAllLines(output.resolve("results.csv")).stream().skip(1).toList();
        assertThat(runs).hasSize(8);
        assertThat(runs).extracting(line -> line.split(",")[0] + "/" + line.split(",")[3])
                .containsExactlyInAnyOrder("simple/direct", "simple/memogate", "simple/memogate-gated",
                        "simple/memogate-unix", "prepared/direct", "prepared/memogate", "prepared/memogate-gated",
                        "prepared/memogate-unix");
        for (String run : runs) {
            String[] cells = run.split(",");
            assertThat(cells[4]).as(run).isEqualTo("ok");
            assertThat(Double.parseDouble(cells[5])).as(run).isPositive();
            assertThat(Double.parseDouble(cells[9])).as("machine busy share of " + run).isBetween(0.0, 1.0).isPositive();
        }
        assertThat(output.resolve("runs").resolve("round1-prepared-memogate-gated.txt")).content()
                .contains("query mode: prepared").contains("exit status 0");

        // PostgreSQL and every pgbench were children of this JVM; none may outlive the benchmark.
        assertThat(awaitNoChildren(Duration.ofSeconds(10))).as("processes left running").isEmpty();
    }

    /**
     * Two client counts with the counts on: a report per count, and cost.md with a row per count, mode and target,
     * whose context switches and allocation are counted for the in-JVM proxy (system calls too where perf can count
     * them); no perf left running after.
     */
    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void severalClientCountsWithTheCountsReportTheCostOfEach(@TempDir Path output) throws Exception {
        runsToSuccess("passthrough", "--rounds", "1", "--seconds", "2", "--warmup", "0", "--clients", "2,4",
                "--threads", "2", "--scale", "1", "--counts", "--targets", "direct,memogate",
                "--output", output.toString());
        assertThat(output.resolve("report-c2.md")).exists();
        assertThat(output.resolve("report-c4.md")).exists();
        assertThat(Files.readString(output.resolve("report-c4.md"))).contains("-c 4 -j 2");
        String cost = Files.readString(output.resolve("cost.md"));
        for (String clients : List.of("2", "4")) {
            for (String mode : List.of("simple", "prepared")) {
                // clients, mode, target, TPS, CPU, 5 syscall columns (figures or "-"), switches, involuntary, bytes
                assertThat(cost).as(clients + " " + mode).containsPattern("\\| " + clients + " \\| " + mode
                        + " \\| memogate \\| \\d+ \\| \\d+\\.\\d \\|( [-\\d.]+ \\|){5} \\d+\\.\\d\\d \\| \\d+\\.\\d\\d \\| \\d+ \\|")
                        .containsPattern("\\| " + clients + " \\| " + mode + " \\| direct \\| \\d+ \\| - \\|");
            }
        }
        assertThat(awaitNoChildren(Duration.ofSeconds(10))).as("processes left running").isEmpty();
    }

    /**
     * --restart-each-round: the relay in a JVM of its own is started again and warmed up before round 2, and that
     * new process is what round 2 measures; the proxy inside the benchmark's JVM and direct are left as they are.
     */
    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void restartingEachRoundWarmsUpAFreshRelayProcessBeforeTheNextRound(@TempDir Path output) throws Exception {
        runsToSuccess("passthrough", "--rounds", "2", "--seconds", "2", "--warmup", "1", "--clients", "2",
                "--threads", "2", "--scale", "1", "--modes", "simple", "--targets", "direct,memogate,netty-relay",
                "--restart-each-round", "--output", output.toString());
        assertThat(Files.readString(output.resolve("report.md")))
                .contains("stopped and started again before every round after the first, and warmed up again");
        Path runs = output.resolve("runs");
        assertThat(runs.resolve("round2-restarted-warmup-simple-netty-relay.txt")).content()
                .contains("exit status 0");
        try (var files = Files.list(runs)) {
            assertThat(files.map(file -> file.getFileName().toString()).filter(name -> name.contains("restarted")))
                    .as("only the target relaying in a process of its own restarts, only before round 2")
                    .containsExactly("round2-restarted-warmup-simple-netty-relay.txt");
        }
        List<String> measured = Files.readAllLines(output.resolve("results.csv")).stream().skip(1)
                .filter(line -> line.split(",")[3].equals("netty-relay")).toList();
        assertThat(measured).as("both rounds measured").hasSize(2)
                .allSatisfy(line -> assertThat(line.split(",")[4]).isEqualTo("ok"));
        assertThat(awaitNoChildren(Duration.ofSeconds(10))).as("processes left running").isEmpty();
    }

    /** Runs `memogate bench` with {@code arguments}; its output is in the failure message when it exits non-zero. */
    private static void runsToSuccess(String... arguments) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = BenchCommand.commandLine().setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
                .execute(arguments);
        assertThat(exit).as("exit status; output:%n%s%nerrors:%n%s", out, err).isZero();
    }

    private static List<String> awaitNoChildren(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<String> left;
        do {
            left = ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)
                    .map(p -> p.pid() + " " + p.info().commandLine().orElse("?")).toList();
            if (!left.isEmpty()) {
                Thread.sleep(100);
            }
        } while (!left.isEmpty() && System.nanoTime() < deadline);
        return left;
    }
}

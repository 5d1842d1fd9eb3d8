package io.memogate.bench.storm;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.bench.BenchCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * `bench storm --smoke` keeps working: 4 clients on a 1 GiB emulated host, direct and gateways-on, 10 s
 * each. It checks that the report is produced and that its numbers agree with each other (the table, the
 * slices and the raw attempts), and that nothing is left running; never how fast anything was.
 */
class StormSmokeIT {

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void theSmokeRunWritesAConsistentReportAndLeavesNothingRunning(@TempDir Path output) throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = BenchCommand.commandLine().setOut(new PrintWriter(out)).setErr(new PrintWriter(err));

        int exit = cli.execute("storm", "--smoke", "--output", output.toString());

        assertThat(exit).as("exit status; output:%n%s%nerrors:%n%s", out, err).isZero();
        List<Map<String, String>> cells = csv(output.resolve("summary.csv"));
        assertThat(cells).extracting(c -> c.get("mode")).containsExactlyInAnyOrder("direct", "gateways-on");
        List<Map<String, String>> slices = csv(output.resolve("slices.csv"));
        List<Map<String, String>> attempts = csv(output.resolve("attempts.csv"));
        for (Map<String, String> cell : cells) {
            String mode = cell.get("mode");
            assertThat(cell.get("failure")).as(mode).isEmpty();
            assertThat(cell.get("window_s")).isEqualTo("10.000");
            long tried = number(cell, "attempts");
            long successes = number(cell, "successes");
            long failed = number(cell, "server_memory_kill") + number(cell, "restart") + number(cell, "gateway_timeout")
                    + number(cell, "other");
            assertThat(successes + failed).as(mode + ": successes and errors by kind add up to the attempts").isEqualTo(tried);
            assertThat(number(cell, "completed")).as(mode + ": a success completes its query").isEqualTo(successes);
            assertThat(Double.parseDouble(cell.get("queries_per_min"))).isEqualTo(successes * 6.0);
            List<Map<String, String>> own = slices.stream().filter(s -> s.get("mode").equals(mode)).toList();
            assertThat(own).hasSize(5);
            assertThat(own.stream().mapToLong(s -> number(s, "attempts")).sum()).isEqualTo(tried);
            assertThat(own.stream().mapToLong(s -> number(s, "completed")).sum()).isEqualTo(successes);
            assertThat(own.stream().mapToLong(s -> number(s, "peak_bytes")).max().orElseThrow())
                    .isEqualTo(number(cell, "peak_bytes"));
            assertThat(attempts.stream().filter(a -> a.get("mode").equals(mode)).count()).isEqualTo(tried);
            assertThat(attempts.stream().filter(a -> a.get("mode").equals(mode) && a.get("outcome").equals("ok")).count())
                    .isEqualTo(successes);
            assertThat(number(cell, "governor_samples")).as("the governor watched the window").isPositive();
            assertThat(Double.parseDouble(cell.get("governor_longest_gap_ms"))).isPositive();
        }

        String report = Files.readString(output.resolve("report.md"));
        assertThat(report).contains("## The emulated host").contains("SIGKILLs the largest backend")
                .containsPattern("\\| 4 \\| persistent \\| direct \\| [\\d.]+ \\|")
                .containsPattern("\\| 4 \\| persistent \\| gateways-on \\| [\\d.]+ \\|")
                .contains("gateways-on / direct")
                .contains("connections recycled");
        for (String chart : List.of("throughput", "reliability", "memory")) {
            Path png = output.resolve(chart + "-4-persistent.png");
            assertThat(Arrays.copyOf(Files.readAllBytes(png), 4)).as(chart)
                    .containsExactly(0x89, 'P', 'N', 'G');
            assertThat(report).contains("(" + chart + "-4-persistent.png)");
        }

        // Every server ran as a child of this JVM (through setpriv); none may outlive the benchmark.
        assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).toList())
                .as("processes left running").isEmpty();
    }

    private static List<Map<String, String>> csv(Path file) throws Exception {
        List<String> lines = Files.readAllLines(file);
        String[] header = lines.getFirst().split(",", -1);
        return lines.stream().skip(1).map(line -> {
            String[] values = line.split(",", -1);
            Map<String, String> row = new HashMap<>();
            for (int i = 0; i < header.length; i++) {
                row.put(header[i], values[i]);
            }
            return row;
        }).toList();
    }

    private static long number(Map<String, String> row, String column) {
        return Long.parseLong(row.get(column));
    }
}

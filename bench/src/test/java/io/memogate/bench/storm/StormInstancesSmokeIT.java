package io.memogate.bench.storm;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.bench.BenchCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * `bench storm --smoke --instances 3` runs three proxies each with its own gateways, then three sharing them
 * through the redis-server it starts, and reports both side by side; its own Redis and servers are gone after
 * it. Never how fast anything was, nor which mode protected the server better: a 10 s smoke run shows neither.
 */
class StormInstancesSmokeIT {

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void threeInstancesRunSharedAndIndependentAndLeaveNothingRunning(@TempDir Path output) throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = BenchCommand.commandLine().setOut(new PrintWriter(out)).setErr(new PrintWriter(err));

        int exit = cli.execute("storm", "--smoke", "--instances", "3", "--output", output.toString());

        assertThat(exit).as("exit status; output:%n%s%nerrors:%n%s", out, err).isZero();
        List<String> summary = Files.readAllLines(output.resolve("summary.csv"));
        assertThat(summary).hasSize(3);
        assertThat(summary.subList(1, 3)).allSatisfy(line -> assertThat(line).as("no cell failed").endsWith(","))
                .anySatisfy(line -> assertThat(line).contains(",gateways-on,"))
                .anySatisfy(line -> assertThat(line).contains(",fleet,"));
        String report = Files.readString(output.resolve("report.md"));
        assertThat(report).contains("### Shared gateways against independent instances")
                .containsPattern("\\| 4 \\| persistent \\| each its own \\(gateways-on\\) \\| \\d+ \\|")
                .containsPattern("\\| 4 \\| persistent \\| one set through Redis \\(fleet\\) \\| \\d+ \\|")
                .containsPattern("- 4 persistent: (met|not met|not shown)")
                .contains("3 Memogate instances in this JVM")
                .contains("through redis-server on 127.0.0.1:")
                .doesNotContain("gateways-on / direct");
        assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).toList())
                .as("processes left running (the servers, redis-server)").isEmpty();
    }
}

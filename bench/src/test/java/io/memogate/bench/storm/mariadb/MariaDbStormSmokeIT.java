package io.memogate.bench.storm.mariadb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.memogate.bench.BenchCommand;
import io.memogate.broker.probe.mysql.MariaDbServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code bench storm --server mariadb --smoke} keeps working: a private MariaDB, one report client and one IN-list
 * client beside sysbench point selects, direct and through Memogate, 10 s each. It checks that the report is
 * written with a row per mode, that IN lists completed in both (the proxy relayed them), and that nothing is left
 * running; never how fast anything was.
 */
class MariaDbStormSmokeIT {

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void theSmokeRunWritesAReportPerModeAndLeavesNothingRunning(@TempDir Path output) throws Exception {
        assumeTrue(MariaDbServer.missing().isEmpty(), MariaDbServer.missing());
        assumeTrue(Files.isExecutable(PointSelects.SYSBENCH), PointSelects.SYSBENCH + " is not installed");
        StringWriter out = new StringWriter();
        CommandLine cli = BenchCommand.commandLine().setOut(new PrintWriter(out)).setErr(new PrintWriter(out));

        int exit = cli.execute("storm", "--server", "mariadb", "--smoke", "--output", output.toString());

        assertThat(exit).as(out.toString()).isZero();
        String report = Files.readString(output.resolve("report.md"));
        for (String mode : List.of("direct", "gateways-on")) {
            Matcher row = Pattern.compile("^\\| " + mode + " \\| ([\\d.]+) \\| (\\d+) \\| ([\\d.]+) \\|", Pattern.MULTILINE)
                    .matcher(report);
            assertThat(row.find()).as(report).isTrue();
            assertThat(Double.parseDouble(row.group(3))).as(mode + ": IN lists completed").isPositive();
        }
        assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).toList())
                .as("processes left running").isEmpty();
    }
}

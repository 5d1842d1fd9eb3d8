package io.memogate.proxy.mysql.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.memogate.proxy.admission.StatementRecord;
import io.memogate.proxy.admission.StatementRecords;
import io.memogate.proxy.cli.RunningProxy;
import io.memogate.proxy.it.ClientProgram;
import io.memogate.proxy.it.ClientProgram.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * MySQL's own load tools through a {@code protocol: mysql} listener served as {@code memogate run} serves it,
 * gateways on, in front of the private MariaDB: sysbench's oltp_read_only (prepared statements: every execute is
 * an admission point) and oltp_point_select, and mariadb-slap's generated load. Each must finish without an
 * error, and the proxy's statement records show its statements went through admission.
 */
@ExtendWith(MariaDbExtension.class)
class MySqlClientToolsIT {

    private static final Path SYSBENCH = Path.of("/usr/bin/sysbench");
    private static final Path SLAP = Path.of("/usr/bin/mariadb-slap");
    private static final String SYSBENCH_DATABASE = "sbtest";

    private static RunningProxy proxy;
    private static StatementRecords records;

    @BeforeAll
    static void start(PrivateMariaDb db) throws Exception {
        db.asRoot("CREATE DATABASE IF NOT EXISTS " + SYSBENCH_DATABASE);
        proxy = MySqlProxy.served(db, 50);
        records = proxy.admission().orElseThrow().control("maria").statements();
    }

    @AfterAll
    static void stop() {
        if (proxy != null) {
            proxy.close();
        }
    }

    @BeforeEach
    void forget() {
        records.clear();
    }

    @Test
    void sysbenchOltpReadOnlyAndPointSelectRunWithoutErrors(@TempDir Path dir) throws Exception {
        assumeTrue(Files.isExecutable(SYSBENCH), SYSBENCH + " is not installed (Debian: apt-get install sysbench; "
                + "bin/memogate test installs it)");
        Result prepare = run(dir, sysbench("oltp_read_only", "prepare"));
        assertThat(prepare.exitCode()).as(prepare.output()).isZero();
        for (String workload : List.of("oltp_read_only", "oltp_point_select")) {
            records.clear();
            Result load = run(dir, sysbench(workload, "run"));
            assertThat(load.exitCode()).as(load.output()).isZero();
            long reads = figure(load.output(), "read:");
            assertThat(reads).as(load.output()).isPositive();
            assertThat(figure(load.output(), "ignored errors:")).as(load.output()).isZero();
            assertThat(figure(load.output(), "reconnects:")).as(load.output()).isZero();
            // Every SELECT sysbench counted went through admission (BEGIN and COMMIT too, for read_only).
            assertThat(admitted()).as(workload + " through the proxy's admission").isGreaterThanOrEqualTo(reads);
            assertThat(records.snapshot()).extracting(StatementRecord::outcome)
                    .doesNotContain(StatementRecord.Outcome.REFUSED);
        }
    }

    @Test
    void mariadbSlapRunsItsGeneratedLoadWithoutErrors(@TempDir Path dir) throws Exception {
        assumeTrue(Files.isExecutable(SLAP), SLAP + " is not installed (Debian: apt-get install mariadb-client)");
        Result slap = run(dir, List.of(SLAP.toString(), "--no-defaults", "--host=127.0.0.1",
                "--port=" + proxy.server().port(), "--user=" + PrivateMariaDb.USER, "--password=" + PrivateMariaDb.PASSWORD,
                "--protocol=tcp", "--concurrency=4", "--iterations=2", "--auto-generate-sql",
                "--auto-generate-sql-load-type=mixed", "--number-of-queries=200", "--create-schema=slap"));
        assertThat(slap.exitCode()).as(slap.output()).isZero();
        assertThat(slap.output()).contains("Average number of seconds to run all queries")
                .contains("Number of clients running queries: 4");
        // Two iterations of 200 queries, each iteration's table made and filled first.
        assertThat(admitted()).as("mariadb-slap through the proxy's admission").isGreaterThanOrEqualTo(400);
    }

    private static List<String> sysbench(String workload, String command) {
        return new ArrayList<>(List.of(SYSBENCH.toString(), workload, "--db-driver=mysql", "--mysql-host=127.0.0.1",
                "--mysql-port=" + proxy.server().port(), "--mysql-user=" + PrivateMariaDb.USER,
                "--mysql-password=" + PrivateMariaDb.PASSWORD, "--mysql-db=" + SYSBENCH_DATABASE, "--tables=2",
                "--table-size=2000", "--threads=4", "--time=4", "--report-interval=0", command));
    }

    /** Statements the proxy's admission decided about since the last clear: those kept and those forgotten. */
    private static long admitted() {
        StatementRecords.Window window = records.window();
        return window.records().size() + window.dropped();
    }

    /** The number after {@code label} in sysbench's summary ("read:  1234"). */
    private static long figure(String output, String label) {
        Matcher matcher = Pattern.compile("\\b" + Pattern.quote(label) + "\\s+(\\d+)").matcher(output);
        if (!matcher.find()) {
            throw new AssertionError("no '" + label + "' in:\n" + output);
        }
        return Long.parseLong(matcher.group(1));
    }

    private static Result run(Path dir, List<String> command) throws Exception {
        return ClientProgram.run(dir, Map.of(), command);
    }
}

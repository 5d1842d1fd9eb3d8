package io.memogate.proxy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.sqlserver.SqlServerCoefficients;
import io.memogate.proxy.calibrate.sqlserver.SqlServerCoefficientsFile;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code memogate estimate --dialect tsql} and {@code memogate calibrate --url jdbc:sqlserver:...} on recorded
 * showplans (Query Store left out with {@code --builtin none}: no SQL Server runs here).
 */
class SqlServerCliTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cli = MemogateCommand.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    private static Path showplans() throws URISyntaxException {
        return Path.of(SqlServerCliTest.class.getResource("/sqlserver/showplans").toURI());
    }

    @Test
    void estimateReadsATsqlBatchStatementByStatement() {
        int code = run("estimate", "--dialect", "tsql", "SET NOCOUNT ON\nSELECT TOP 5 [o].[id] FROM [dbo].[orders] AS [o]"
                + " WITH (NOLOCK) INNER HASH JOIN #recent r ON r.id = [o].[id] OPTION (RECOMPILE)");
        assertThat(code).as(err.toString()).isZero();
        String[] lines = out.toString().strip().split("\n");
        assertThat(lines).hasSize(2);
        assertThat(lines[0]).contains("\"bypass\":true");
        assertThat(lines[1]).contains("\"bypass\":false").contains("\"search\":\"cascades\"").contains("\"parser\":\"calcite\"");
    }

    @Test
    void estimateRefusesSettingsForTsql() {
        assertThat(run("estimate", "--dialect", "tsql", "-s", "geqo=off", "select 1")).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(err.toString()).contains("--dialect tsql");
    }

    @Test
    void calibrateFitsRecordedShowplansAndEstimateUsesTheFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("sqlserver.yaml");
        int code = run("calibrate", "--url", "jdbc:sqlserver://never-connected:1433", "--builtin", "none",
                "--corpus", showplans().toString(), "--output", file.toString());
        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString()).contains("4 compiles").contains("wrote " + file);
        SqlServerCoefficients fitted = SqlServerCoefficientsFile.read(file);
        assertThat(fitted).isNotEqualTo(SqlServerCoefficients.DEFAULTS);

        out.getBuffer().setLength(0);
        assertThat(run("estimate", "--dialect", "tsql", "--coefficients", file.toString(),
                "SELECT a.x FROM a JOIN b ON b.id = a.id")).as(err.toString()).isZero();
        String fittedLine = out.toString();
        out.getBuffer().setLength(0);
        run("estimate", "--dialect", "tsql", "SELECT a.x FROM a JOIN b ON b.id = a.id");
        assertThat(fittedLine).isNotEqualTo(out.toString());
    }

    @Test
    void calibrateWithNothingRecordedSaysSo(@TempDir Path dir) {
        assertThat(run("calibrate", "--url", "jdbc:sqlserver://never-connected:1433", "--builtin", "none",
                "--output", dir.resolve("c.yaml").toString())).isEqualTo(1);
        assertThat(err.toString()).contains("0 compiles recorded: at least 3 are needed");
    }
}

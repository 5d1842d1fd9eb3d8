package io.memogate.proxy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.mysql.MySqlCoefficients;
import io.memogate.proxy.config.ConfigLoader;
import io.memogate.proxy.config.MemogateConfig;
import io.memogate.proxy.calibrate.mysql.MySqlCoefficientsFile;
import io.memogate.proxy.calibrate.mysql.MySqlCorpus;
import io.memogate.proxy.mysql.it.MariaDbExtension;
import io.memogate.proxy.mysql.it.PrivateMariaDb;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code memogate calibrate} against the private MariaDB: the built-in corpus (joins that search for at most about
 * two seconds, IN lists), each statement under max_statement_time, the coefficients fitted and written, the file
 * read by the configuration's {@code estimator.mysqlCoefficients}, and the corpus's database dropped after.
 */
@ExtendWith(MariaDbExtension.class)
class MySqlCalibrateCommandIT {

    private record Run(int exit, String out, String err) {
    }

    @Test
    void fitsTheOptimizersTimeAndMemoryAndWritesAFileTheConfigurationReads(PrivateMariaDb db, @TempDir Path dir)
            throws Exception {
        Path output = dir.resolve("mariadb-coefficients.yaml");

        Run run = calibrate("--url", url(db), "--user", PrivateMariaDb.USER, "--password", PrivateMariaDb.PASSWORD,
                "--statement-timeout", "20s", "-o", output.toString());

        assertThat(run.exit()).as(run.err() + run.out()).isZero();
        assertThat(run.out()).contains("clique 10, prune 0, depth 62").contains("time after: Spearman")
                .contains("memory after: Spearman").contains("wrote " + output.toAbsolutePath())
                .containsPattern("memory after: Spearman [0-9.-]+ \\(90% interval [0-9.]+-[0-9.]+\\) over");
        MySqlCoefficients fitted = MySqlCoefficientsFile.read(output);
        // measured on MariaDB 10.11 (bench/log/mysql-optimizer.md): about 0.2 us per partial order, 150-290 bytes
        // a token; a fit an order of magnitude off either way would be a broken measurement
        assertThat(fitted.secondsPerPlan()).isBetween(0.02e-6, 2e-6);
        assertThat(fitted.secondsPerPrunedCandidate()).isPositive();
        assertThat(fitted.bytesPerToken()).isBetween(30.0, 1500.0);
        assertThat(fitted).isNotEqualTo(MySqlCoefficients.DEFAULTS);
        assertThat(db.asRoot("SHOW DATABASES LIKE '" + MySqlCorpus.DATABASE + "';")).isBlank();

        Files.writeString(dir.resolve("memogate.yaml"), """
                backends:
                  - {name: maria, host: 127.0.0.1, port: %d}
                estimator:
                  mysqlCoefficients: mariadb-coefficients.yaml
                """.formatted(db.port()));
        MemogateConfig config = new ConfigLoader().load(dir.resolve("memogate.yaml"));
        assertThat(config.estimator().mysqlCoefficients()).isEqualTo(fitted);
    }

    @Test
    void nothingToMeasureIsAClearError(PrivateMariaDb db, @TempDir Path dir) {
        Run run = calibrate("--url", url(db), "--builtin", "none", "-o", dir.resolve("c.yaml").toString());

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("nothing to measure: no synthetic corpus");
    }

    private static String url(PrivateMariaDb db) {
        return "jdbc:mariadb://127.0.0.1:" + db.port() + "/" + PrivateMariaDb.DATABASE + "?sslMode=disable";
    }

    private static Run calibrate(String... arguments) {
        String[] all = new String[arguments.length + 1];
        all[0] = "calibrate";
        System.arraycopy(arguments, 0, all, 1, arguments.length);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine command = MemogateCommand.commandLine();
        command.setOut(new PrintWriter(out));
        command.setErr(new PrintWriter(err));
        return new Run(command.execute(all), out.toString(), err.toString());
    }
}

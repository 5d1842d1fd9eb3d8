package io.memogate.proxy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * `memogate calibrate`'s mistakes that are found before it connects (CalibrateCommandIT runs it against
 * a server): each is one line naming the option and the file, and the exit code of a bad command line.
 */
class CalibrateCommandTest {

    /** Nothing listens on port 1: a test that got as far as connecting would fail differently. */
    private static final String URL = "jdbc:postgresql://127.0.0.1:1/postgres";

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cli = MemogateCommand.commandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        return cli.execute(args);
    }

    @Test
    void aMissingCorpusDirectoryIsOneLine(@TempDir Path dir) {
        Path none = dir.resolve("none");

        assertThat(run("calibrate", "--url", URL, "--corpus", none.toString()))
                .isEqualTo(MemogateCommand.EXIT_BAD_CONFIGURATION);
        assertThat(err.toString()).isEqualTo("memogate: --corpus " + none + ": directory not found\n");
    }

    @Test
    void aCorpusFileThatIsNotUtf8IsNamed(@TempDir Path dir) throws Exception {
        Path latin1 = Files.write(dir.resolve("q.sql"), "select 'caf\u00e9'".getBytes(StandardCharsets.ISO_8859_1));

        assertThat(run("calibrate", "--url", URL, "--corpus", dir.toString()))
                .isEqualTo(MemogateCommand.EXIT_BAD_CONFIGURATION);
        assertThat(err.toString()).isEqualTo("memogate: --corpus " + latin1 + ": not UTF-8 text\n");
    }

    @Test
    void anOutputInAMissingDirectoryIsSaidBeforeMeasuring(@TempDir Path dir) {
        Path none = dir.resolve("none");

        assertThat(run("calibrate", "--url", URL, "--output", none.resolve("c.yaml").toString()))
                .isEqualTo(MemogateCommand.EXIT_BAD_CONFIGURATION);
        assertThat(err.toString()).isEqualTo("memogate: --output " + none + ": directory not found\n");
    }
}

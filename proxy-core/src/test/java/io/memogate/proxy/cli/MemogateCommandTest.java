package io.memogate.proxy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class MemogateCommandTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int execute(String... args) {
        CommandLine commandLine = MemogateCommand.commandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        return commandLine.execute(args);
    }

    @Test
    void anInvalidConfigurationNamesEveryProblemAndNoStackTrace(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("memogate.yaml");
        Files.writeString(config, """
                backends:
                  - name: main
                    host: 127.0.0.1
                    port: 70000
                limits:
                  maxMessageBytes: 12XB
                """);

        int exit = execute("run", "--config", config.toString());

        assertThat(exit).isEqualTo(MemogateCommand.EXIT_BAD_CONFIGURATION);
        assertThat(err.toString())
                .contains("invalid configuration")
                .contains("backends[0].port")
                .contains("limits.maxMessageBytes")
                .doesNotContain("\tat ");
    }

    @Test
    void aMissingConfigurationFileIsNamed(@TempDir Path dir) {
        int exit = execute("run", "--config", dir.resolve("absent.yaml").toString());

        assertThat(exit).isEqualTo(MemogateCommand.EXIT_BAD_CONFIGURATION);
        assertThat(err.toString()).contains("file not found").contains("absent.yaml");
    }

    @Test
    void aSubCommandIsRequired() {
        assertThat(execute()).isNotZero();
        assertThat(err.toString()).contains("sub-command");
    }

    @Test
    void helpListsTheSubCommands() {
        assertThat(execute("--help")).isZero();
        assertThat(out.toString()).contains("demo").contains("run");
    }
}

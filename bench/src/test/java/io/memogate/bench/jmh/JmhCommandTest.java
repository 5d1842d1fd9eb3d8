package io.memogate.bench.jmh;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.bench.BenchCommand;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.ParseResult;

class JmhCommandTest {

    @Test
    void everyArgumentGoesToJmhInOrderIncludingOptionsPicocliWouldOtherwiseTake() {
        assertThat(arguments("jmh", "GatewayBench", "-f", "1", "-wi", "3", "-i", "5"))
                .containsExactly("GatewayBench", "-f", "1", "-wi", "3", "-i", "5");
        assertThat(arguments("jmh", "-h")).containsExactly("-h");
        assertThat(arguments("jmh", "--version", "@file", "--", "x")).containsExactly("--version", "@file", "--", "x");
        assertThat(arguments("jmh")).isEmpty();
    }

    @Test
    void listsTheBenchmarksOfThisJar() throws Exception {
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream original = System.out;
        int exit;
        // JMH's Main prints to System.out; -l lists and returns without starting a fork.
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            exit = BenchCommand.commandLine().execute("jmh", "-l");
        } finally {
            System.setOut(original);
        }

        assertThat(exit).isZero();
        assertThat(captured.toString(StandardCharsets.UTF_8))
                .contains("io.memogate.bench.jmh.GatewayBench.smallTier")
                .contains("io.memogate.bench.jmh.GatewayBench.ungated");
    }

    private static List<String> arguments(String... args) {
        ParseResult parsed = BenchCommand.commandLine().parseArgs(args);
        return ((JmhCommand) parsed.subcommand().commandSpec().userObject()).arguments();
    }
}

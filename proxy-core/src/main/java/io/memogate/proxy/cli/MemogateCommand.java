package io.memogate.proxy.cli;

import io.memogate.proxy.server.LeakDetection;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The `memogate` command line: one sub-command per job (see bin/memogate, which builds and starts it).
 * `test` and `bench` are the launcher's own (one runs Maven, the other a separate jar), so this jar has
 * no sub-command for them; the footer lists them, because --help is where a user looks for them.
 */
@Command(
        name = "memogate",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "SQL-aware PostgreSQL proxy with compile admission control.",
        subcommands = {DemoCommand.class, RunCommand.class, EstimateCommand.class, CalibrateCommand.class},
        footer = {
                "Run by bin/memogate itself (not by this jar):",
                "  test       Run the whole test suite, unit and integration tests (mvnw",
                "               verify).",
                "  bench      Run the benchmarks, a separate jar: passthrough, storm, jmh,",
                "               accuracy (bin/memogate bench --help)."})
public final class MemogateCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a sub-command is required");
    }

    /** Exit code for a bad configuration or command line (picocli uses 2 for bad arguments too). */
    static final int EXIT_BAD_CONFIGURATION = 2;
    /** Exit code when an address of the proxy or of its admin HTTP endpoint cannot be listened on. */
    static final int EXIT_CANNOT_LISTEN = 3;
    /** Exit code when `demo` cannot start its embedded PostgreSQL. */
    static final int EXIT_EMBEDDED_POSTGRES = 4;

    public static void main(String[] args) {
        LeakDetection.offUnlessAsked();
        System.exit(commandLine().execute(args));
    }

    /**
     * The command line with Memogate's error handling ({@link StartupFailures}): a mistake the operator
     * can fix prints one line and no stack trace; anything else is a bug and keeps its trace.
     */
    static CommandLine commandLine() {
        CommandLine commandLine = new CommandLine(new MemogateCommand());
        commandLine.setCaseInsensitiveEnumValuesAllowed(true); // --planner wide
        commandLine.setExecutionExceptionHandler(new StartupFailures());
        return commandLine;
    }
}

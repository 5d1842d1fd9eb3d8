package io.memogate.proxy.cli;

import io.memogate.proxy.config.ConfigException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The `memogate` command line: one sub-command per job (see bin/memogate, which builds and starts it). */
@Command(
        name = "memogate",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "SQL-aware PostgreSQL proxy with compile admission control.",
        subcommands = {DemoCommand.class, RunCommand.class, EstimateCommand.class, CalibrateCommand.class})
public final class MemogateCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a sub-command is required");
    }

    /** Exit code for a configuration that cannot be used (picocli uses 2 for bad arguments too). */
    static final int EXIT_BAD_CONFIGURATION = 2;

    public static void main(String[] args) {
        // Netty's leak detector samples buffer allocations and records stack traces: measurable CPU on
        // the relay path (about 2% under pgbench). Off unless the operator asks for it.
        if (System.getProperty("io.netty.leakDetection.level") == null) {
            System.setProperty("io.netty.leakDetection.level", "disabled");
        }
        System.exit(commandLine().execute(args));
    }

    /**
     * The command line with Memogate's error handling: a configuration error prints its message, which
     * names every problem's field, and no stack trace; anything else is a bug and keeps its trace.
     */
    static CommandLine commandLine() {
        CommandLine commandLine = new CommandLine(new MemogateCommand());
        commandLine.setCaseInsensitiveEnumValuesAllowed(true); // --planner wide
        commandLine.setExecutionExceptionHandler((error, command, parseResult) -> {
            if (error instanceof ConfigException) {
                command.getErr().println("memogate: " + error.getMessage());
                return EXIT_BAD_CONFIGURATION;
            }
            throw error;
        });
        return commandLine;
    }
}

package io.memogate.proxy.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The `memogate` command line: one sub-command per job (see bin/memogate, which builds and starts it). */
@Command(
        name = "memogate",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "SQL-aware PostgreSQL proxy with compile admission control.",
        subcommands = {DemoCommand.class, RunCommand.class, EstimateCommand.class})
public final class MemogateCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a sub-command is required");
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new MemogateCommand()).execute(args));
    }
}

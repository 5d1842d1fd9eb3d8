package io.memogate.bench;

import io.memogate.bench.accuracy.AccuracyCommand;
import io.memogate.bench.accuracy.mariadb.MariaDbAccuracyCommand;
import io.memogate.bench.jmh.JmhCommand;
import io.memogate.bench.passthrough.PassthroughCommand;
import io.memogate.bench.storm.StormCommand;
import io.memogate.proxy.server.LeakDetection;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * `memogate bench`: the benchmarks, a separate jar from the product (bin/memogate builds and starts it).
 * One sub-command per benchmark.
 */
@Command(
        name = "memogate bench",
        mixinStandardHelpOptions = true,
        versionProvider = BenchCommand.Version.class,
        description = "Benchmarks that measure the proxy side by side with its alternatives, in one run.",
        subcommands = {PassthroughCommand.class, StormCommand.class, JmhCommand.class, AccuracyCommand.class,
                MariaDbAccuracyCommand.class})
public final class BenchCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a benchmark is required (passthrough, jmh)");
    }

    /**
     * The command line, with target and mode names accepted in any case ("memogate" or "MEMOGATE"). `jmh`
     * hands every argument after it to JMH: its parser stops at the first one and expands no @files.
     */
    public static CommandLine commandLine() {
        CommandLine commandLine = new CommandLine(new BenchCommand()).setCaseInsensitiveEnumValuesAllowed(true);
        commandLine.getSubcommands().get("jmh").setStopAtUnmatched(true).setExpandAtFiles(false);
        return commandLine;
    }

    public static void main(String[] args) {
        // The in-process proxy is measured as `memogate run` runs it.
        LeakDetection.offUnlessAsked();
        System.exit(commandLine().execute(args));
    }

    /** The version from the jar's manifest (set by the build), or "development" when run from classes. */
    public static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = BenchCommand.class.getPackage().getImplementationVersion();
            return new String[] {"memogate bench " + (version != null ? version : "development")};
        }
    }
}

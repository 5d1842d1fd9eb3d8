package io.memogate.bench.storm;

import io.memogate.bench.storm.load.ConnectionStyle;
import io.memogate.bench.storm.load.Mode;
import io.memogate.bench.storm.load.QueryTemplates;
import io.memogate.bench.storm.load.Template;
import io.memogate.bench.storm.mariadb.MariaDbStorm;
import io.memogate.bench.storm.mariadb.MariaDbStormPlan;
import io.memogate.proxy.cli.ByteSizeConverter;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * `memogate bench storm`: the compile-storm experiment of the paper behind Memogate (Baryshnikov et al.,
 * CIDR 2007), against PostgreSQL: many clients submitting unique 13-19-table reports with retries, directly
 * and through Memogate with its gateways off and on, on an emulated smaller host. Writes report.md, CSV
 * files and PNG charts to --output. Exits 0 when every cell ran (whatever its figures), 1 otherwise.
 */
@Command(name = "storm", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
                "The compile storm: clients looping over unique 13-19-table reports with retries, directly, through"
                        + " Memogate with gateways off and with gateways on, alternating, on an emulated host whose"
                        + " memory governor kills the largest backend as the OOM killer would.",
                "With --instances N the clients spread over N Memogate instances, each with its own gateways"
                        + " (gateways-on) or sharing one set through a private redis-server (fleet).",
                "Starts its own PostgreSQL 18 for every cell; runs as root (to set oom_score_adj and to SIGKILL"
                        + " the server's backends, which run as nobody)."})
public final class StormCommand implements Callable<Integer> {

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    @Spec
    CommandSpec spec;

    @Option(names = "--server", defaultValue = "postgresql", paramLabel = "postgresql|mariadb",
            description = "mariadb: the MariaDB storm instead (a private mariadbd; reports with pruning off and IN lists"
                    + " beside sysbench point selects, direct and gateways-on; --clients, --seconds, --warmup,"
                    + " --host-memory, --seed, --smoke and --output apply; default: ${DEFAULT-VALUE}).")
    String server;

    @Option(names = "--clients", split = ",", defaultValue = "30,35,40", paramLabel = "N",
            description = "Concurrent clients, one run per number (default: ${DEFAULT-VALUE}).")
    List<Integer> clients;

    @Option(names = "--styles", split = ",", defaultValue = "new,persistent", paramLabel = "STYLE",
            description = "new: a connection per submission; persistent: one kept per client (default: ${DEFAULT-VALUE}).")
    List<ConnectionStyle> styles;

    @Option(names = "--modes", split = ",", paramLabel = "MODE", converter = ModeConverter.class,
            description = "direct, gateways-off, gateways-on, gateways-degrade (gateways-on, and a report that never"
                    + " fits or has waited 5 s runs under tighter planner settings), fleet (default:"
                    + " direct,gateways-off,gateways-on; with --instances above 1: gateways-on,fleet).")
    List<Mode> modes;

    @Option(names = "--instances", defaultValue = "1", paramLabel = "N",
            description = "Memogate instances in front of the server, the clients spread evenly over them: with"
                    + " gateways-on each keeps its own gateways, with fleet they share one set through a private"
                    + " redis-server the benchmark starts (default: ${DEFAULT-VALUE}).")
    int instances;

    @Option(names = "--seconds", defaultValue = "300", description = "Measured duration of each run (default: ${DEFAULT-VALUE}).")
    long seconds;

    @Option(names = "--warmup", defaultValue = "60", paramLabel = "SECONDS",
            description = "Load before the measurement starts, not counted (default: ${DEFAULT-VALUE}).")
    long warmupSeconds;

    @Option(names = "--slice", defaultValue = "30", paramLabel = "SECONDS",
            description = "Width of a time slice in the charts (default: ${DEFAULT-VALUE}).")
    long sliceSeconds;

    @Option(names = "--host-memory", defaultValue = "6GiB", paramLabel = "SIZE", converter = ByteSizeConverter.class,
            description = "The emulated database host: the server's private memory may not exceed it (default: 6GiB).")
    long hostMemory;

    @Option(names = "--recycle-above", defaultValue = "64MiB", paramLabel = "SIZE", converter = ByteSizeConverter.class,
            description = "Gateways-on: recycle an idle session's server connection that keeps more than this, "
                    + "as recycle.retainedAbove does; 0 turns recycling off (default: ${DEFAULT-VALUE}).")
    long recycleAbove;

    @Option(names = "--governor-interval", defaultValue = "25", paramLabel = "MS",
            description = "How often the memory governor samples the server, at most 50 (default: ${DEFAULT-VALUE}).")
    long governorIntervalMillis;

    @Option(names = "--retries", defaultValue = "15", description = "Retries of a failed query (default: ${DEFAULT-VALUE}).")
    int retries;

    @Option(names = "--retry-pause", defaultValue = "1000", paramLabel = "MS",
            description = "Wait after a lost connection before retrying (default: ${DEFAULT-VALUE}).")
    long retryPauseMillis;

    @Option(names = "--seed", defaultValue = "1", description = "Seed of the clients' choices (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--smoke",
            description = "A quick check that the benchmark works: 4 clients, persistent, direct and gateways-on,"
                    + " 5 s warm-up, 10 s measured in 2 s slices, a 1GiB host. Overrides the options above.")
    boolean smoke;

    @Option(names = "--check-templates",
            description = "Instead of a storm: plan each template once, alone, on a governed server, and print its"
                    + " planner memory (EXPLAIN (SUMMARY, MEMORY)) beside Memogate's estimate.")
    boolean checkTemplates;

    @Option(names = "--templates", paramLabel = "FILE",
            description = "Report templates to use instead of the built-in ten, in the format of the built-in"
                    + " templates.sql ('-- tNN: description', then one statement with {tag} and {k}).")
    Path templatesFile;

    @Option(names = "--output", paramLabel = "DIR",
            description = "Directory for report.md, the CSV files and the charts (default: bench/target/storm-<timestamp>).")
    Path output;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        if (checkTemplates) {
            new TemplateCheck(templates(), hostMemory, Duration.ofMillis(governorIntervalMillis), out).run();
            return 0;
        }
        if (server.equalsIgnoreCase("mariadb")) {
            return new MariaDbStorm(mariaDbPlan(output != null ? output : defaultOutput()), out, commandLine()).run() ? 0 : 1;
        }
        if (!server.equalsIgnoreCase("postgresql")) {
            throw new ParameterException(spec.commandLine(), "--server must be postgresql or mariadb, was " + server);
        }
        StormPlan plan;
        try {
            plan = plan(output != null ? output : defaultOutput());
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        return new StormBench(plan, templates(), out, commandLine()).run() ? 0 : 1;
    }

    /** The command as typed, for the report: bin/memogate bench storm and the options given. */
    private String commandLine() {
        List<String> args = spec.commandLine().getParseResult().originalArgs();
        return "bin/memogate bench " + String.join(" ", args);
    }

    private List<Template> templates() throws IOException {
        return templatesFile != null ? QueryTemplates.load(templatesFile) : QueryTemplates.load();
    }

    StormPlan plan(Path directory) {
        if (smoke) {
            // With several instances the smoke run compares them shared and independent, as the full run does.
            List<Mode> smokeModes = instances > 1 ? List.of(Mode.GATEWAYS_ON, Mode.FLEET)
                    : List.of(Mode.DIRECT, Mode.GATEWAYS_ON);
            return new StormPlan(List.of(Math.max(4, instances)), List.of(ConnectionStyle.PERSISTENT), smokeModes,
                    Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(2), 1L << 30,
                    Duration.ofMillis(governorIntervalMillis), retries, Duration.ofMillis(retryPauseMillis), seed, directory,
                    recycleAbove, instances);
        }
        return new StormPlan(clients, styles, modes(), Duration.ofSeconds(warmupSeconds), Duration.ofSeconds(seconds),
                Duration.ofSeconds(sliceSeconds), hostMemory, Duration.ofMillis(governorIntervalMillis), retries,
                Duration.ofMillis(retryPauseMillis), seed, directory, recycleAbove, instances);
    }

    /** As given; else several instances are compared shared against independent, one against direct. */
    private List<Mode> modes() {
        if (modes != null) {
            return modes;
        }
        return instances > 1 ? List.of(Mode.GATEWAYS_ON, Mode.FLEET)
                : List.of(Mode.DIRECT, Mode.GATEWAYS_OFF, Mode.GATEWAYS_ON);
    }

    /**
     * The MariaDB storm's plan: the options given, else its own defaults, smaller than PostgreSQL's (6 heavy
     * clients, a 320 MiB host, IN lists of 300,000 values, 20 s quiet, 10 s warm-up, 60 s measured), as MariaDB's
     * heavy statements cost CPU seconds each on a machine the clients share.
     */
    MariaDbStormPlan mariaDbPlan(Path directory) {
        CommandLine.ParseResult given = spec.commandLine().getParseResult();
        if (smoke) {
            return new MariaDbStormPlan(2, 1, Duration.ofSeconds(5), Duration.ofSeconds(3), Duration.ofSeconds(10),
                    512L << 20, Duration.ofMillis(governorIntervalMillis), 50_000, 20, seed, directory);
        }
        int heavy = given.hasMatchedOption("--clients") ? clients.getFirst() : 6;
        long host = given.hasMatchedOption("--host-memory") ? hostMemory : 320L << 20;
        Duration measured = Duration.ofSeconds(given.hasMatchedOption("--seconds") ? seconds : 60);
        Duration warm = Duration.ofSeconds(given.hasMatchedOption("--warmup") ? warmupSeconds : 10);
        try {
            return new MariaDbStormPlan(heavy, 2, Duration.ofSeconds(20), warm, measured, host,
                    Duration.ofMillis(governorIntervalMillis), 300_000, 20, seed, directory);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
    }

    /** bench/target/storm-TIMESTAMP, next to the jar bin/memogate runs (or to the classes directory). */
    private static Path defaultOutput() throws URISyntaxException {
        Path location = Path.of(StormCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path target = location.getParent() != null ? location.getParent() : Path.of("target");
        return target.resolve("storm-" + LocalDateTime.now().format(STAMP)).toAbsolutePath();
    }

    static final class ModeConverter implements CommandLine.ITypeConverter<Mode> {
        @Override
        public Mode convert(String value) {
            return Mode.parse(value);
        }
    }
}

package io.memogate.bench.accuracy.mariadb;

import io.memogate.broker.probe.mysql.MariaDbServer;
import io.memogate.estimator.Catalog;
import io.memogate.estimator.mysql.MySqlCoefficients;
import io.memogate.estimator.mysql.OptimizerSettings;
import io.memogate.proxy.calibrate.mysql.MySqlCalibration;
import io.memogate.proxy.calibrate.mysql.MySqlCorpus;
import io.memogate.proxy.calibrate.mysql.OptimizerProbe;
import io.memogate.proxy.mysql.catalog.StatisticsCatalog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * `memogate bench mariadb-accuracy`: the MySQL dialect's optimizer-time and memory model against a private
 * MariaDB (Debian's mariadbd, started with --no-defaults on a port of its own, never the machine's server). It
 * first runs calibrate's corpus to fit the coefficients, as an operator would, then measures a seeded corpus
 * ({@link RandomMariaDbCorpus}) and compares, on the same statements, the time predicted from the join graph
 * alone (the estimate without a catalog) with the time of the search replayed on the tables' statistics (the
 * estimate with the catalog the proxy reads). Every EXPLAIN runs under max_statement_time.
 */
@Command(name = "mariadb-accuracy", mixinStandardHelpOptions = true, sortOptions = false,
        description = "The MySQL dialect's optimizer model against a private MariaDB: calibrate's corpus fits the"
                + " coefficients, then a seeded corpus of joins and IN lists is measured and compared.")
public final class MariaDbAccuracyCommand implements Callable<Integer> {

    private static final String USER = "memogate_bench";
    private static final String PASSWORD = "memogate_bench";

    @Option(names = "--output", defaultValue = "mariadb-accuracy", paramLabel = "DIR",
            description = "Where observations.tsv and report.md go (default: ${DEFAULT-VALUE}).")
    Path output;

    @Option(names = "--seed", defaultValue = "1", paramLabel = "N",
            description = "Seed of the schema and the statements (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--joins", defaultValue = "160", paramLabel = "N",
            description = "Join statements in the corpus (default: ${DEFAULT-VALUE}).")
    int joins;

    @Option(names = "--min-tables", defaultValue = "3", paramLabel = "N",
            description = "Fewest tables a join statement joins (default: ${DEFAULT-VALUE}).")
    int minTables;

    @Option(names = "--max-tables", defaultValue = "14", paramLabel = "N",
            description = "Most tables a join statement joins, at most 24 (default: ${DEFAULT-VALUE}).")
    int maxTables;

    @Option(names = "--long-searches", defaultValue = "40", paramLabel = "N",
            description = "Joins without pruning sized to search for about 100 ms to a few seconds, beside the"
                    + " random ones (default: ${DEFAULT-VALUE}).")
    int longSearches;

    @Option(names = "--in-lists", defaultValue = "12", paramLabel = "N",
            description = "IN-list statements in the corpus (default: ${DEFAULT-VALUE}).")
    int lists;

    @Option(names = "--repeat-below-ms", defaultValue = "5", paramLabel = "MS",
            description = "A statement whose first EXPLAIN took less CPU time than this is measured --repeats times"
                    + " and its median kept (default: ${DEFAULT-VALUE}).")
    double repeatBelowMillis;

    @Option(names = "--repeats", defaultValue = "5", paramLabel = "N",
            description = "Measurements of a short statement, the median kept; 1 measures each once"
                    + " (default: ${DEFAULT-VALUE}).")
    int repeats;

    @Option(names = "--statement-timeout", defaultValue = "8", paramLabel = "SECONDS",
            description = "max_statement_time of each EXPLAIN (default: ${DEFAULT-VALUE}).")
    double timeoutSeconds;

    @Override
    public Integer call() throws Exception {
        String missing = MariaDbServer.missing();
        if (!missing.isEmpty()) {
            System.err.println("memogate: bench mariadb-accuracy: " + missing);
            return 2;
        }
        if (repeats < 1 || longSearches < 0) {
            System.err.println("memogate: bench mariadb-accuracy: --repeats must be at least 1 and --long-searches"
                    + " at least 0, were " + repeats + " and " + longSearches);
            return 2;
        }
        if (minTables < 2 || maxTables > RandomMariaDbCorpus.TABLES || minTables > maxTables) {
            System.err.println("memogate: bench mariadb-accuracy: --min-tables and --max-tables must be within 2.."
                    + RandomMariaDbCorpus.TABLES + ", the first no larger, were " + minTables + " and " + maxTables);
            return 2;
        }
        Files.createDirectories(output);
        Duration limit = Duration.ofMillis(Math.round(timeoutSeconds * 1000));
        try (MariaDbServer server = MariaDbServer.start(List.of())) {
            server.asRoot("CREATE USER " + USER + "@'%' IDENTIFIED BY '" + PASSWORD + "';\n"
                    + "GRANT ALL ON *.* TO " + USER + "@'%';");
            String url = "jdbc:mariadb://127.0.0.1:" + server.port() + "/?sslMode=disable";
            OptimizerProbe.Connections connections = () -> DriverManager.getConnection(url, USER, PASSWORD);
            try (Connection admin = connections.open()) {
                String version = admin.getMetaData().getDatabaseProductVersion();
                MySqlCoefficients fitted = calibrate(admin, connections, limit);
                RandomMariaDbCorpus corpus = new RandomMariaDbCorpus(seed, OptimizerSettings.MARIADB_DEFAULTS);
                System.err.println("mariadb-accuracy: creating the corpus's schema");
                corpus.create(admin);
                try {
                    Catalog catalog = Catalog.of(StatisticsCatalog.read(admin, RandomMariaDbCorpus.DATABASE));
                    AccuracyMeasurement measurement = new AccuracyMeasurement(
                            new OptimizerProbe(connections, Optional.of(RandomMariaDbCorpus.DATABASE), limit),
                            new SteadyTiming(repeatBelowMillis / 1000, repeats), catalog);
                    AccuracyMeasurement.Result result = measurement.run(
                            corpus.cases(joins, minTables, maxTables, longSearches, lists),
                            line -> System.err.println("mariadb-accuracy: " + line));
                    String header = String.format(java.util.Locale.ROOT, "`memogate bench mariadb-accuracy --seed %d"
                                    + " --joins %d --min-tables %d --max-tables %d --long-searches %d --in-lists %d"
                                    + " --repeat-below-ms %s --repeats %d --statement-timeout %s`, %s UTC, MariaDB %s,"
                                    + " %d CPUs",
                            seed, joins, minTables, maxTables, longSearches, lists, repeatBelowMillis, repeats,
                            timeoutSeconds, LocalDateTime.now(ZoneOffset.UTC).withNano(0),
                            version, Runtime.getRuntime().availableProcessors());
                    result.write(output, header, fitted, limit);
                } finally {
                    corpus.drop(admin);
                }
            }
        }
        System.out.println("wrote " + output.resolve("report.md") + " and observations.tsv");
        return 0;
    }

    /** Calibrate's built-in corpus on the same server: the coefficients both models are judged with. */
    private static MySqlCoefficients calibrate(Connection admin, OptimizerProbe.Connections connections,
                                               Duration limit) throws Exception {
        System.err.println("mariadb-accuracy: calibrating on calibrate's corpus");
        MySqlCorpus.create(admin);
        try {
            MySqlCalibration.Result result = new MySqlCalibration().run(
                    new MySqlCorpus(OptimizerSettings.MARIADB_DEFAULTS).cases(),
                    new OptimizerProbe(connections, Optional.of(MySqlCorpus.DATABASE), limit),
                    Catalog.of(StatisticsCatalog.read(admin, MySqlCorpus.DATABASE)), MySqlCoefficients.DEFAULTS,
                    line -> System.err.println("mariadb-accuracy: calibrate: " + line));
            System.err.println("mariadb-accuracy: fitted " + result.fitted());
            return result.fitted();
        } finally {
            MySqlCorpus.drop(admin);
        }
    }
}

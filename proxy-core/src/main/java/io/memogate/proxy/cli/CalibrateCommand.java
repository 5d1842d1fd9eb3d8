package io.memogate.proxy.cli;

import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.estimator.postgres.MemoryCoefficients;
import io.memogate.estimator.postgres.PlannerSettings;
import io.memogate.proxy.calibrate.sqlserver.SqlServerFit;
import io.memogate.proxy.config.ByteSize;
import io.memogate.proxy.config.Durations;
import io.memogate.proxy.files.TextFiles;
import io.memogate.proxy.files.UnreadableFileException;
import io.memogate.proxy.postgres.CurrentEstimator;
import io.memogate.proxy.postgres.calibrate.BuiltInCorpus;
import io.memogate.proxy.postgres.calibrate.Calibration;
import io.memogate.proxy.postgres.calibrate.CalibrationException;
import io.memogate.proxy.postgres.calibrate.CalibrationReport;
import io.memogate.proxy.postgres.calibrate.CoefficientFit;
import io.memogate.proxy.postgres.calibrate.CoefficientsFile;
import io.memogate.proxy.postgres.calibrate.CorpusFiles;
import io.memogate.proxy.postgres.calibrate.CorpusStatement;
import io.memogate.proxy.postgres.calibrate.PlannerMemory;
import io.memogate.proxy.postgres.calibrate.StaticTiers;
import io.memogate.proxy.postgres.catalog.ServerCatalog;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * `memogate calibrate --url JDBC_URL ...`: fits the estimator's memory coefficients to a PostgreSQL 17+
 * server, or, for a {@code jdbc:mariadb:} URL, the MySQL dialect's memory and search-time coefficients to a
 * MariaDB or MySQL server ({@link MySqlCalibrate}), or, for a {@code jdbc:sqlserver:} URL, the T-SQL dialect's to
 * the compiles a SQL Server recorded ({@link SqlServerCalibrate}). For PostgreSQL, builds a corpus (synthetic join
 * shapes, TPC-H and TPC-DS, each on temporary tables of its own session, and the statements of every *.sql file
 * under each --corpus directory), measures each statement's planner memory with EXPLAIN (SUMMARY, MEMORY), fits
 * ({@link CoefficientFit}), prints a table and the accuracy before and after, and writes the coefficients file the
 * configuration's {@code estimator.coefficients} can name.
 *
 * <p>Safe on a server in use: EXPLAIN plans without running, each statement is bounded by
 * statement_timeout, statements estimated above --max-estimate are not planned at all, and the built-in
 * corpora's tables are temporary (and dropped before the --corpus statements are measured).
 */
@Command(name = "calibrate", mixinStandardHelpOptions = true,
        description = "Fit the estimator's coefficients to a PostgreSQL 17+ server (memory), to a MariaDB or MySQL "
                + "server (jdbc:mariadb: URL; memory and join-search time), or to the compiles a SQL Server recorded "
                + "(jdbc:sqlserver: URL; Query Store, and showplans in --corpus), and write them to a file.")
final class CalibrateCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--url", required = true, paramLabel = "JDBC_URL",
            description = "The server, e.g. jdbc:postgresql://db:5432/app.")
    String url;

    @Option(names = "--user", paramLabel = "USER", description = "Login role (else the URL's or the driver's default).")
    String user;

    @Option(names = "--password", paramLabel = "PASSWORD", description = "Its password (else the URL's, or none).")
    String password;

    @Option(names = "--corpus", paramLabel = "DIR",
            description = "A directory whose *.sql files (sub-directories too) are measured as well; repeatable.")
    List<Path> corpus = new ArrayList<>();

    @Option(names = {"-s", "--setting"}, paramLabel = "NAME=VALUE",
            description = "A setting for the measuring session (SET), e.g. join_collapse_limit=20; the estimator "
                    + "follows the planner settings it models.")
    Map<String, String> settings = new LinkedHashMap<>();

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", defaultValue = "memogate-coefficients.yaml",
            description = "Where to write the coefficients (default: ${DEFAULT-VALUE}).")
    Path output;

    @Option(names = "--builtin", split = ",", paramLabel = "NAME", defaultValue = "synthetic,tpch,tpcds",
            description = "Built-in corpora, each on temporary tables of calibrate's own session: synthetic, tpch, "
                    + "tpcds, or none (e.g. on a read-only standby, with a --corpus) (default: ${DEFAULT-VALUE}).")
    List<String> builtin = new ArrayList<>();

    @Option(names = "--statement-timeout", paramLabel = "DURATION", defaultValue = "60s",
            description = "statement_timeout (MySQL: max_statement_time) of each EXPLAIN (default: ${DEFAULT-VALUE}).")
    String statementTimeout;

    @Option(names = "--max-estimate", paramLabel = "SIZE", defaultValue = "2GiB",
            description = "Statements estimated above this (by the default coefficients) are not planned "
                    + "(default: ${DEFAULT-VALUE}).")
    String maxEstimate;

    @Option(names = "--target", paramLabel = "SIZE", defaultValue = "256MiB",
            description = "Compile-memory target whose default tier thresholds judge tier agreement "
                    + "(default: ${DEFAULT-VALUE}, the broker's static target).")
    String target;

    @Override
    public Integer call() throws IOException {
        Duration timeout = parse("--statement-timeout", statementTimeout, Durations::parse);
        if (MySqlCalibrate.isMySqlUrl(url)) {
            return calibrateMySql(timeout);
        }
        if (SqlServerCalibrate.isSqlServerUrl(url)) {
            return calibrateSqlServer();
        }
        long maxEstimateBytes = parse("--max-estimate", maxEstimate, ByteSize::parse).bytes();
        long targetBytes = parse("--target", target, ByteSize::parse).bytes();
        PlannerSettings planner = PlannerSettings.DEFAULTS;
        for (Map.Entry<String, String> s : settings.entrySet()) {
            planner = planner.with(s.getKey(), s.getValue());
        }
        Set<BuiltInCorpus> builtIns = builtIns();
        List<CorpusStatement> own = corpusStatements();
        requireOutputDirectory();
        if (builtIns.isEmpty() && own.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "nothing to measure: --builtin none and no statement "
                    + "in " + (corpus.isEmpty() ? "any --corpus (none given)" : corpus));
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try (Connection connection = JdbcLogin.connect(url, user, password, "memogate calibrate")) {
            PlannerMemory memory = new PlannerMemory(connection);
            String version = memory.requireMemoryOption();
            memory.set("statement_timeout", timeout.toMillis() + "ms");
            for (Map.Entry<String, String> s : settings.entrySet()) {
                memory.set(s.getKey(), s.getValue());
            }
            MemoryCoefficients start = MemoryCoefficients.DEFAULTS;
            Calibration calibration = new Calibration(CurrentEstimator.estimatorFor(start), planner, maxEstimateBytes);
            Consumer<String> progress = line -> err.println("calibrate: " + line);
            Calibration.Result result = Calibration.Result.NONE;
            for (BuiltInCorpus builtIn : builtIns) {
                progress.accept(builtIn.label() + ": creating its temporary tables");
                createTables(connection, builtIn);
                result = result.plus(calibration.measure(memory, builtIn.statements(), ServerCatalog.read(connection),
                        progress));
                BuiltInCorpus.dropTables(connection);
            }
            result = result.plus(calibration.measure(memory, own, ServerCatalog.read(connection), progress));
            err.flush();
            if (result.measured().isEmpty()) {
                err.println("memogate: no statement could be measured (" + result.skipped().size() + " skipped, "
                        + result.bypassed() + " bypassed); nothing written");
                return 1;
            }
            CoefficientFit fit = CoefficientFit.of(result.measured(), start);
            CalibrationReport report = new CalibrationReport(result, start, fit,
                    StaticTiers.of(GatewaySettings.defaults(1), targetBytes));
            report.print(out);
            CoefficientsFile.write(output, fit.coefficients(),
                    report.header(version, Instant.now().truncatedTo(ChronoUnit.SECONDS).toString()));
            return wrote(out);
        } catch (SQLException e) {
            return failed(err, e);
        } catch (CalibrationException e) {
            err.println("memogate: " + e.getMessage());
            return 1;
        }
    }

    /**
     * A MySQL or MariaDB server: its own corpus (synthetic joins and IN lists; tpch and tpcds are PostgreSQL's),
     * each statement under max_statement_time = --statement-timeout.
     */
    private Integer calibrateMySql(Duration timeout) throws IOException {
        boolean builtIn = builtIns().contains(BuiltInCorpus.SYNTHETIC);
        List<CorpusStatement> own = corpusStatements();
        requireOutputDirectory();
        if (!builtIn && own.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "nothing to measure: no synthetic corpus (--builtin) and"
                    + " no statement in " + (corpus.isEmpty() ? "any --corpus (none given)" : corpus));
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try {
            return new MySqlCalibrate(url, user, password).run(builtIn, own, settings, timeout, output, out, err)
                    ? wrote(out) : 1;
        } catch (SQLException e) {
            return failed(err, e);
        }
    }

    /**
     * SQL Server: the compiles it recorded, Query Store's (unless {@code --builtin none}) and the showplans in the
     * {@code --corpus} directories; nothing is compiled here.
     */
    private Integer calibrateSqlServer() throws IOException {
        boolean queryStore = !(builtin.size() == 1 && builtin.getFirst().equalsIgnoreCase("none"));
        requireOutputDirectory();
        List<SqlServerFit.Observation> observations = new ArrayList<>(SqlServerCalibrate.showplans(corpus));
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (queryStore) {
            try (Connection connection = JdbcLogin.connect(url, user, password, "memogate calibrate")) {
                observations.addAll(SqlServerCalibrate.queryStore(connection, err));
            } catch (SQLException e) {
                return failed(err, e);
            }
        }
        return SqlServerCalibrate.fitAndWrite(observations, output, out, err) ? wrote(out) : 1;
    }

    private int wrote(PrintWriter out) {
        out.println("wrote " + output.toAbsolutePath());
        out.flush();
        return 0;
    }

    private static int failed(PrintWriter err, SQLException e) {
        err.println("memogate: calibrate: " + e.getMessage());
        return 1;
    }

    private List<CorpusStatement> corpusStatements() {
        List<CorpusStatement> statements = new ArrayList<>();
        CorpusFiles files = new CorpusFiles();
        for (Path directory : corpus) {
            try {
                statements.addAll(files.read(directory));
            } catch (UnreadableFileException e) {
                throw new OptionFileException("--corpus", e);
            }
        }
        return statements;
    }

    /** Checked before measuring, which takes minutes, so that a fit is never lost for want of a directory. */
    private void requireOutputDirectory() {
        Path directory = output.toAbsolutePath().getParent();
        try {
            TextFiles.requireDirectory(directory);
        } catch (UnreadableFileException e) {
            throw new OptionFileException("--output", e);
        }
        if (!Files.isWritable(directory)) {
            throw new OptionFileException("--output", directory, "directory not writable");
        }
    }

    private static void createTables(Connection connection, BuiltInCorpus builtIn) {
        try {
            builtIn.createTables(connection);
        } catch (SQLException e) {
            throw new CalibrationException("cannot create the " + builtIn.label() + " corpus's temporary tables ("
                    + e.getMessage() + "); on a read-only server use --builtin none with a --corpus");
        }
    }

    /** The corpora --builtin names (measured in the order synthetic, tpch, tpcds); "none" alone for none. */
    private Set<BuiltInCorpus> builtIns() {
        Set<BuiltInCorpus> chosen = EnumSet.noneOf(BuiltInCorpus.class);
        for (String name : builtin) {
            if (name.equalsIgnoreCase("none") && builtin.size() == 1) {
                return chosen;
            }
            chosen.add(Arrays.stream(BuiltInCorpus.values()).filter(c -> c.label().equalsIgnoreCase(name.strip()))
                    .findFirst().orElseThrow(() -> new ParameterException(spec.commandLine(), "--builtin: unknown corpus '"
                            + name + "' (expected synthetic, tpch, tpcds, or none alone)")));
        }
        return chosen;
    }

    private <T> T parse(String option, String text, Function<String, T> parser) {
        try {
            return parser.apply(text);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), option + ": " + e.getMessage());
        }
    }
}

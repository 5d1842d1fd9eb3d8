package io.memogate.proxy.cli;

import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.estimator.planner.MemoryCoefficients;
import io.memogate.estimator.planner.PlannerSettings;
import io.memogate.proxy.admission.CurrentEstimator;
import io.memogate.proxy.calibrate.Calibration;
import io.memogate.proxy.calibrate.CalibrationException;
import io.memogate.proxy.calibrate.CalibrationReport;
import io.memogate.proxy.calibrate.CoefficientFit;
import io.memogate.proxy.calibrate.CoefficientsFile;
import io.memogate.proxy.calibrate.CorpusFiles;
import io.memogate.proxy.calibrate.CorpusStatement;
import io.memogate.proxy.calibrate.PlannerMemory;
import io.memogate.proxy.calibrate.StaticTiers;
import io.memogate.proxy.calibrate.SyntheticCorpus;
import io.memogate.proxy.config.ByteSize;
import io.memogate.proxy.config.Durations;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * `memogate calibrate --url JDBC_URL ...`: fits the estimator's memory coefficients to a PostgreSQL 17+
 * server (issue 3, item 6). Builds a corpus (synthetic join shapes on temporary tables of its own session,
 * and the statements of every *.sql file under each --corpus directory), measures each statement's
 * planner memory with EXPLAIN (SUMMARY, MEMORY), fits ({@link CoefficientFit}), prints a table and the
 * accuracy before and after, and writes the coefficients file the configuration's
 * {@code estimator.coefficients} can name.
 *
 * <p>Safe on a server in use: EXPLAIN plans without running, each statement is bounded by
 * statement_timeout, statements estimated above --max-estimate are not planned at all, and the synthetic
 * tables are temporary.
 */
@Command(name = "calibrate", mixinStandardHelpOptions = true,
        description = "Fit the estimator's memory coefficients to a PostgreSQL 17+ server and write them to a file.")
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

    @Option(names = "--no-synthetic", description = "Measure only the --corpus statements.")
    boolean noSynthetic;

    @Option(names = "--statement-timeout", paramLabel = "DURATION", defaultValue = "60s",
            description = "statement_timeout of each EXPLAIN (default: ${DEFAULT-VALUE}).")
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
        long maxEstimateBytes = parse("--max-estimate", maxEstimate, ByteSize::parse).bytes();
        long targetBytes = parse("--target", target, ByteSize::parse).bytes();
        PlannerSettings planner = PlannerSettings.DEFAULTS;
        for (Map.Entry<String, String> s : settings.entrySet()) {
            planner = planner.with(s.getKey(), s.getValue());
        }
        List<CorpusStatement> statements = new ArrayList<>(noSynthetic ? List.of() : SyntheticCorpus.statements());
        CorpusFiles files = new CorpusFiles();
        for (Path directory : corpus) {
            statements.addAll(files.read(directory));
        }
        if (statements.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "nothing to measure: --no-synthetic and no statement "
                    + "in " + (corpus.isEmpty() ? "any --corpus (none given)" : corpus));
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try (Connection connection = connect()) {
            PlannerMemory memory = new PlannerMemory(connection);
            String version = memory.requireMemoryOption();
            memory.set("statement_timeout", timeout.toMillis() + "ms");
            for (Map.Entry<String, String> s : settings.entrySet()) {
                memory.set(s.getKey(), s.getValue());
            }
            if (!noSynthetic) {
                createTables(connection);
            }
            MemoryCoefficients start = MemoryCoefficients.DEFAULTS;
            Calibration.Result result = new Calibration(CurrentEstimator.estimatorFor(start), planner, maxEstimateBytes)
                    .measure(memory, statements, line -> err.println("calibrate: " + line));
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
            out.println("wrote " + output.toAbsolutePath());
            out.flush();
            return 0;
        } catch (SQLException e) {
            err.println("memogate: calibrate: " + e.getMessage());
            return 1;
        } catch (CalibrationException e) {
            err.println("memogate: " + e.getMessage());
            return 1;
        }
    }

    private Connection connect() throws SQLException {
        Properties properties = new Properties();
        if (user != null) {
            properties.setProperty("user", user);
        }
        if (password != null) {
            properties.setProperty("password", password);
        }
        properties.setProperty("ApplicationName", "memogate calibrate");
        return DriverManager.getConnection(url, properties);
    }

    private static void createTables(Connection connection) {
        try (Statement statement = connection.createStatement()) {
            for (String sql : SyntheticCorpus.setup()) {
                statement.execute(sql);
            }
        } catch (SQLException e) {
            throw new CalibrationException("cannot create the synthetic shapes' temporary tables (" + e.getMessage()
                    + "); on a read-only server use --no-synthetic with a --corpus");
        }
    }

    private <T> T parse(String option, String text, Function<String, T> parser) {
        try {
            return parser.apply(text);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), option + ": " + e.getMessage());
        }
    }
}

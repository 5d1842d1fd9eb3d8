package io.memogate.proxy.cli;

import io.memogate.estimator.Catalog;
import io.memogate.estimator.CompileEstimate;
import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.PreparedStatementTexts;
import io.memogate.estimator.dialect.DialectSettings;
import io.memogate.estimator.mysql.MySqlDialect;
import io.memogate.estimator.mysql.OptimizerSettings;
import io.memogate.estimator.postgres.PlannerSettings;
import io.memogate.estimator.sqlserver.SqlServerCoefficients;
import io.memogate.estimator.sqlserver.SqlServerDialect;
import io.memogate.estimator.sqlserver.SqlServerSettings;
import io.memogate.proxy.admin.EstimateJson;
import io.memogate.proxy.calibrate.InvalidCoefficientsException;
import io.memogate.proxy.calibrate.sqlserver.SqlServerCoefficientsFile;
import io.memogate.proxy.files.TextFiles;
import io.memogate.proxy.files.UnreadableFileException;
import io.memogate.proxy.postgres.CurrentEstimator;
import io.memogate.proxy.postgres.calibrate.CoefficientsFile;
import io.memogate.proxy.postgres.catalog.ServerCatalog;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * `memogate estimate [--dialect postgresql|mysql|tsql] [--setting NAME=VALUE ...] [--coefficients FILE] [--catalog-url JDBC_URL] (--file FILE | SQL...)`:
 * the estimator on its own, one JSON line per statement, for trying statements and checking the estimator
 * against EXPLAIN (MEMORY); --coefficients takes the file `memogate calibrate` wrote, --catalog-url a database
 * whose indexes to count and views and functions to expand, as the proxy does with broker.monitor.
 * SQL words given on the command line are joined with spaces into one text, which may hold several
 * statements separated by semicolons, as a file may.
 */
@Command(name = "estimate", mixinStandardHelpOptions = true,
        description = "Estimate the planner memory PostgreSQL (or, with --dialect mysql, MySQL and MariaDB; with"
                + " --dialect tsql, SQL Server) needs for each statement; one JSON line per statement.")
final class EstimateCommand implements Callable<Integer> {

    /** The settings PlannerSettings models; others are rejected rather than silently ignored. */
    private static final Set<String> SETTINGS = Set.copyOf(PlannerSettings.NAMES);

    @Spec
    CommandSpec spec;

    @Option(names = {"-s", "--setting"}, paramLabel = "NAME=VALUE",
            description = "A PostgreSQL planner setting (join_collapse_limit, from_collapse_limit, geqo, "
                    + "geqo_threshold, geqo_effort, geqo_pool_size, geqo_generations, enable_partitionwise_join, "
                    + "enable_partitionwise_aggregate, enable_memoize); unset ones take PostgreSQL's defaults.")
    Map<String, String> settings = new LinkedHashMap<>();

    @Option(names = "--dialect", paramLabel = "SERVER", defaultValue = "postgresql",
            description = "Whose statements to estimate: postgresql (default), or mysql (MySQL and MariaDB: -s then"
                    + " takes optimizer_search_depth, optimizer_prune_level, optimizer_switch; unset ones take"
                    + " MariaDB's defaults), or tsql (SQL Server's T-SQL, batches split as SQL Server splits them; no"
                    + " settings; --coefficients takes the file estimator.sqlserverCoefficients names).")
    String dialect;

    @Option(names = "--coefficients", paramLabel = "FILE",
            description = "Memory coefficients written by `memogate calibrate` (default: the built-in ones).")
    Path coefficients;

    @Option(names = "--catalog-url", paramLabel = "JDBC_URL",
            description = "Read this database's indexes (pg_index), views, SQL and PL/pgSQL functions and procedures,"
                    + " and triggers: count the parameterized index scans the indexes allow, expand the views and"
                    + " functions the statements name, and follow the routines they call and the triggers they fire,"
                    + " as the proxy does with broker.monitor (default: estimate from the SQL alone).")
    String catalogUrl;

    @Option(names = "--user", paramLabel = "USER", description = "Login role for --catalog-url.")
    String user;

    @Option(names = "--password", paramLabel = "PASSWORD", description = "Its password, if the server asks for one.")
    String password;

    @ArgGroup(multiplicity = "1")
    Input input;

    static final class Input {
        @Option(names = {"-f", "--file"}, paramLabel = "FILE", description = "Read the statements from FILE.")
        Path file;

        @Parameters(paramLabel = "SQL", arity = "1..*", description = "The statements, as words joined with spaces.")
        List<String> sql;
    }

    @Override
    public Integer call() {
        if (dialect.equalsIgnoreCase("mysql")) {
            return mysql();
        }
        if (dialect.equalsIgnoreCase("tsql") || dialect.equalsIgnoreCase("sqlserver")) {
            return tsql();
        }
        if (!dialect.equalsIgnoreCase("postgresql")) {
            throw new ParameterException(spec.commandLine(), "--dialect " + dialect
                    + ": use postgresql, mysql or tsql");
        }
        PlannerSettings planner = plannerSettings();
        String text = input.file != null ? read(input.file) : String.join(" ", input.sql);
        CompileEstimator estimator = estimator(); // before --catalog-url connects: a wrong file is quicker to say
        Catalog catalog;
        try {
            catalog = catalog();
        } catch (SQLException e) {
            spec.commandLine().getErr().println("memogate: estimate: cannot read the catalog at " + catalogUrl + ": "
                    + e.getMessage());
            return 1;
        }
        PrintWriter out = spec.commandLine().getOut();
        for (CompileEstimate e : estimator.estimateAll(text, planner, PreparedStatementTexts.NONE, catalog)) {
            out.println(json(e));
        }
        out.flush();
        return 0;
    }

    /** MySQL's statements: no coefficients file or catalog yet, the settings MySQL's optimizer model reads. */
    private Integer mysql() {
        if (coefficients != null || catalogUrl != null) {
            throw new ParameterException(spec.commandLine(), "--dialect mysql: --coefficients and --catalog-url are"
                    + " PostgreSQL's; MySQL's estimates use the built-in coefficients and no catalog");
        }
        OptimizerSettings optimizer = OptimizerSettings.MARIADB_DEFAULTS;
        for (Map.Entry<String, String> s : settings.entrySet()) {
            String name = s.getKey().strip().toLowerCase(Locale.ROOT);
            if (!OptimizerSettings.NAMES.contains(name)) {
                throw new ParameterException(spec.commandLine(), "--setting " + s.getKey() + ": not an optimizer "
                        + "variable the estimator models; use one of "
                        + String.join(", ", OptimizerSettings.NAMES.stream().sorted().toList()));
            }
            OptimizerSettings next = optimizer.with(name, s.getValue());
            if (next.equals(optimizer) && !s.getValue().equalsIgnoreCase("default")) {
                throw new ParameterException(spec.commandLine(), "--setting " + s.getKey() + "=" + s.getValue()
                        + ": MySQL would refuse this value");
            }
            optimizer = next;
        }
        return print(new CompileEstimator(new MySqlDialect()), optimizer);
    }

    /** SQL Server's statements: no settings or catalog, the built-in coefficients or those of --coefficients. */
    private Integer tsql() {
        if (!settings.isEmpty() || catalogUrl != null) {
            throw new ParameterException(spec.commandLine(), "--dialect tsql: --setting and --catalog-url are not"
                    + " read for SQL Server: no session setting changes its model, and no catalog is read");
        }
        SqlServerCoefficients c = SqlServerCoefficients.DEFAULTS;
        if (coefficients != null) {
            try {
                c = SqlServerCoefficientsFile.read(coefficients);
            } catch (InvalidCoefficientsException e) {
                throw new OptionFileException("--coefficients", coefficients, String.join("; ", e.problems()));
            }
        }
        return print(new CompileEstimator(new SqlServerDialect(c)), SqlServerSettings.DEFAULTS);
    }

    /** One JSON line per statement of the input, estimated by {@code estimator} under {@code settings}. */
    private Integer print(CompileEstimator estimator, DialectSettings dialectSettings) {
        String text = input.file != null ? read(input.file) : String.join(" ", input.sql);
        PrintWriter out = spec.commandLine().getOut();
        for (CompileEstimate e : estimator.estimateAll(text, dialectSettings)) {
            out.println(json(e));
        }
        out.flush();
        return 0;
    }

    private static String read(Path file) {
        try {
            return TextFiles.read(file);
        } catch (UnreadableFileException e) {
            throw new OptionFileException("--file", e);
        }
    }

    private Catalog catalog() throws SQLException {
        if (catalogUrl == null) {
            return Catalog.NONE;
        }
        try (Connection connection = JdbcLogin.connect(catalogUrl, user, password, "memogate estimate")) {
            return ServerCatalog.read(connection);
        }
    }

    private CompileEstimator estimator() {
        if (coefficients == null) {
            return new CompileEstimator();
        }
        try {
            return CurrentEstimator.estimatorFor(CoefficientsFile.read(coefficients));
        } catch (InvalidCoefficientsException e) {
            throw new OptionFileException("--coefficients", coefficients, String.join("; ", e.problems()));
        }
    }

    private PlannerSettings plannerSettings() {
        PlannerSettings planner = PlannerSettings.DEFAULTS;
        for (Map.Entry<String, String> s : settings.entrySet()) {
            String name = s.getKey().strip().toLowerCase(Locale.ROOT);
            if (!SETTINGS.contains(name)) {
                throw new ParameterException(spec.commandLine(),
                        "--setting " + s.getKey() + ": not a planner setting the estimator models; use one of "
                                + String.join(", ", SETTINGS.stream().sorted().toList()));
            }
            if (!PlannerSettings.accepts(name, s.getValue())) {
                throw new ParameterException(spec.commandLine(), "--setting " + s.getKey() + "=" + s.getValue()
                        + ": PostgreSQL would refuse this value (invalid, or outside the setting's range)");
            }
            planner = planner.with(name, s.getValue());
        }
        return planner;
    }

    static String json(CompileEstimate e) {
        return EstimateJson.of(e);
    }
}

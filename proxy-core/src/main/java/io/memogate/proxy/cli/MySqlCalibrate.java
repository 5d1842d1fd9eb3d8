package io.memogate.proxy.cli;

import io.memogate.estimator.mysql.MySqlCoefficients;
import io.memogate.estimator.mysql.OptimizerSettings;
import io.memogate.estimator.Catalog;
import io.memogate.proxy.calibrate.mysql.MySqlCalibration;
import io.memogate.proxy.calibrate.mysql.MySqlCoefficientsFile;
import io.memogate.proxy.calibrate.mysql.MySqlCorpus;
import io.memogate.proxy.calibrate.mysql.OptimizerCase;
import io.memogate.proxy.calibrate.mysql.OptimizerProbe;
import io.memogate.proxy.mysql.catalog.StatisticsCatalog;
import io.memogate.proxy.postgres.calibrate.CorpusStatement;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * {@code memogate calibrate} against a MySQL or MariaDB server ({@code --url jdbc:mariadb://...}): the built-in
 * corpus ({@link MySqlCorpus}, in a database calibrate creates and drops) and the --corpus statements, each
 * EXPLAINed on a connection of its own under {@code max_statement_time} (--statement-timeout), the coefficients
 * fitted ({@link io.memogate.proxy.calibrate.mysql.MySqlFit}, with the tables' statistics read as the proxy
 * reads them, {@link StatisticsCatalog}) and written where {@code estimator.mysqlCoefficients}
 * reads them. EXPLAIN plans without running; nothing searches longer than the limit.
 */
record MySqlCalibrate(String url, String user, String password) {

    /** The URL schemes of a MySQL or MariaDB server (mariadb-java-client reads both). */
    static boolean isMySqlUrl(String url) {
        return url.startsWith("jdbc:mariadb:") || url.startsWith("jdbc:mysql:");
    }

    /**
     * @param builtIn whether to measure the built-in corpus
     * @param own the --corpus statements, measured under {@code settings} in the URL's database
     * @param settings the -s settings (optimizer_search_depth, optimizer_prune_level, optimizer_switch)
     * @return false when no statement could be measured, and nothing was written
     * @throws SQLException when the server cannot be reached or the corpus's tables cannot be made
     */
    boolean run(boolean builtIn, List<CorpusStatement> own, Map<String, String> settings, Duration limit, Path output,
            PrintWriter out, PrintWriter err) throws IOException, SQLException {
        OptimizerSettings base = OptimizerSettings.MARIADB_DEFAULTS;
        for (Map.Entry<String, String> s : settings.entrySet()) {
            base = base.with(s.getKey(), s.getValue());
        }
        Consumer<String> progress = line -> err.println("calibrate: " + line);
        MySqlCoefficients start = MySqlCoefficients.DEFAULTS;
        MySqlCalibration calibration = new MySqlCalibration();
        OptimizerProbe.Connections connections = () -> JdbcLogin.connect(url, user, password, "memogate calibrate");
        try (Connection admin = connections.open()) {
            String version = admin.getMetaData().getDatabaseProductName() + " "
                    + admin.getMetaData().getDatabaseProductVersion();
            List<MySqlCalibration.Result> results = new ArrayList<>();
            if (builtIn) {
                progress.accept("creating the database " + MySqlCorpus.DATABASE + " and its tables");
                MySqlCorpus.create(admin);
                try {
                    results.add(calibration.run(new MySqlCorpus(base).cases(),
                            new OptimizerProbe(connections, Optional.of(MySqlCorpus.DATABASE), limit),
                            Catalog.of(StatisticsCatalog.read(admin, MySqlCorpus.DATABASE)), start, progress));
                } finally {
                    MySqlCorpus.drop(admin);
                }
            }
            OptimizerSettings ownSettings = base;
            List<OptimizerCase> ownCases = own.stream().map(s -> new OptimizerCase(s.name(), s.sql(), ownSettings,
                    ownSettings.pruneLevel() > 0)).toList();
            if (!ownCases.isEmpty()) {
                String database = admin.getCatalog();
                Catalog catalog = database == null || database.isEmpty() ? Catalog.NONE
                        : Catalog.of(StatisticsCatalog.read(admin, database));
                results.add(calibration.run(ownCases, new OptimizerProbe(connections, Optional.empty(), limit), catalog,
                        start, progress));
            }
            MySqlCalibration.Result result = MySqlCalibration.merge(results, start);
            err.flush();
            if (result.observations().isEmpty()) {
                err.println("memogate: no statement could be measured (" + result.failed().size()
                        + " left out); nothing written");
                return false;
            }
            MySqlCalibration.print(result, out);
            MySqlCoefficientsFile.write(output, result.fitted(), List.of(
                    "Memogate MySQL/MariaDB optimizer coefficients, fitted by `memogate calibrate`",
                    "server: " + version, "fitted: " + Instant.now().truncatedTo(ChronoUnit.SECONDS),
                    "statements measured: " + result.observations().size() + ", left out: " + result.failed().size(),
                    "name this file in estimator.mysqlCoefficients"));
            return true;
        }
    }
}

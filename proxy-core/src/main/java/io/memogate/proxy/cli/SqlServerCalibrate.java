package io.memogate.proxy.cli;

import io.memogate.estimator.sqlserver.SqlServerCoefficients;
import io.memogate.proxy.calibrate.sqlserver.QueryStoreCompiles;
import io.memogate.proxy.calibrate.sqlserver.Showplans;
import io.memogate.proxy.calibrate.sqlserver.SqlServerCoefficientsFile;
import io.memogate.proxy.calibrate.sqlserver.SqlServerFit;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * {@code memogate calibrate --url jdbc:sqlserver://...}: fits the T-SQL dialect's coefficients to the compiles a
 * SQL Server recorded, without compiling anything itself: Query Store's queries and their
 * {@code avg_compile_memory_kb} (unless {@code --builtin none}), and the statements of the showplans saved in the
 * {@code --corpus} directories (*.sqlplan, *.xml: SSMS's saved plans, {@code SET STATISTICS XML ON}'s output) with
 * their {@code CompileMemory}. Writes the file {@code estimator.sqlserverCoefficients} names. Tested on showplan
 * XML only: it has never been run against a SQL Server (none runs where it was built).
 */
final class SqlServerCalibrate {

    /** Query Store's queries read at most: the most compiled first. */
    static final int QUERY_STORE_LIMIT = 1_000;

    private SqlServerCalibrate() {
    }

    static boolean isSqlServerUrl(String url) {
        return url.startsWith("jdbc:sqlserver:");
    }

    /** The compiles of every showplan file under {@code directories}. */
    static List<SqlServerFit.Observation> showplans(List<Path> directories) throws IOException {
        List<SqlServerFit.Observation> observations = new ArrayList<>();
        for (Path directory : directories) {
            List<Path> files;
            try (Stream<Path> all = Files.walk(directory)) {
                files = all.filter(Files::isRegularFile).filter(SqlServerCalibrate::isShowplan).sorted().toList();
            }
            for (Path file : files) {
                try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                    for (Showplans.Compile compile : Showplans.read(in)) {
                        observations.add(new SqlServerFit.Observation(compile.statement(),
                                compile.compileMemoryBytes()));
                    }
                } catch (IOException e) {
                    throw new IOException(file + ": " + e.getMessage(), e);
                }
            }
        }
        return observations;
    }

    private static boolean isShowplan(Path file) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        return name.endsWith(".sqlplan") || name.endsWith(".xml");
    }

    /** Query Store's compiles in the connection's database, the most compiled first. */
    static List<SqlServerFit.Observation> queryStore(Connection connection, PrintWriter err) throws SQLException {
        List<SqlServerFit.Observation> stored = QueryStoreCompiles.read(connection, QUERY_STORE_LIMIT);
        err.println("calibrate: " + stored.size() + " queries read from Query Store");
        return stored;
    }

    /** Fits on {@code observations}, prints the fit and writes {@code output}; false when there is too little. */
    static boolean fitAndWrite(List<SqlServerFit.Observation> observations, Path output, PrintWriter out,
                               PrintWriter err) throws IOException {
        if (observations.size() < 3) {
            err.println("memogate: calibrate: " + observations.size() + " compiles recorded: at least 3 are needed");
            return false;
        }
        SqlServerCoefficients start = SqlServerCoefficients.DEFAULTS;
        SqlServerFit.Fit fit = SqlServerFit.fit(observations, start);
        out.printf(Locale.ROOT, "%d compiles; weighted RMS error %.3f with the defaults, %.3f fitted%n",
                observations.size(), SqlServerFit.error(observations, start), fit.weightedError());
        out.println("fitted: " + fit.coefficients());
        SqlServerCoefficientsFile.write(output, fit.coefficients(), List.of(
                "SQL Server coefficients fitted by memogate calibrate on " + observations.size() + " recorded compiles",
                "(showplans' CompileMemory, Query Store's avg_compile_memory_kb); name this file in",
                "estimator.sqlserverCoefficients", ""));
        return true;
    }
}

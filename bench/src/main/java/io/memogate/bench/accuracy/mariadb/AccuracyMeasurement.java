package io.memogate.bench.accuracy.mariadb;

import io.memogate.estimator.Catalog;
import io.memogate.estimator.mysql.MySqlCoefficients;
import io.memogate.proxy.calibrate.RankCorrelation;
import io.memogate.proxy.calibrate.mysql.MySqlFit;
import io.memogate.proxy.calibrate.mysql.OptimizerCase;
import io.memogate.proxy.calibrate.mysql.OptimizerProbe;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.function.Consumer;
import java.util.function.ToDoubleFunction;

/**
 * Each statement of a corpus EXPLAINed on a private MariaDB ({@link OptimizerProbe}) and observed by the model
 * with and without the tables' statistics ({@link MySqlFit#observe}); a short statement measured several times
 * ({@link SteadyTiming}); a statement interrupted at max_statement_time is kept, its time a lower bound. The
 * report: Spearman's rank correlation of measured and predicted time over the join statements that finished and
 * over those that took 100 ms or more (the population the accuracy goal names), and the share within 2x of the
 * latter, for the time from the join graph alone (the estimate without a catalog) and for the search replayed on
 * the statistics; how many interrupted ones each predicted past the limit; memory likewise above 1 MiB.
 */
final class AccuracyMeasurement {

    /** MariaDB's ER_STATEMENT_TIMEOUT: "Query execution was interrupted (max_statement_time exceeded)". */
    private static final int STATEMENT_TIMEOUT = 1969;
    private static final double LONG_SECONDS = 0.1;
    private static final double LARGE_BYTES = 1 << 20;

    /** One statement: what the model counts, what was measured, and whether the limit interrupted it. */
    record Measured(MySqlFit.Observation observation, boolean interrupted) {
    }

    record Result(List<Measured> measured, List<String> failed) {

        void write(Path dir, String header, MySqlCoefficients c, Duration limit) throws IOException {
            StringBuilder tsv = new StringBuilder("statement\tinterrupted\tmeasured_s\tgraph_s\treplayed_s\t"
                    + "priced_extensions\tgraph_count\tmeasured_bytes\tpredicted_bytes\tsql\n");
            for (Measured m : measured) {
                MySqlFit.Observation o = m.observation();
                tsv.append(String.format(Locale.ROOT, "%s\t%b\t%.6f\t%.6g\t%.6g\t%.0f\t%.0f\t%s\t%.0f\t%s%n",
                        o.statement().name(), m.interrupted(), o.seconds(), MySqlFit.graphSeconds(o, c),
                        MySqlFit.seconds(o, c), o.priced(), o.count(),
                        o.bytes().isPresent() ? Long.toString(o.bytes().getAsLong()) : "", MySqlFit.bytes(o, c),
                        o.statement().sql().length() > 300 ? o.statement().sql().substring(0, 300) + "..."
                                : o.statement().sql()));
            }
            Files.writeString(dir.resolve("observations.tsv"), tsv);
            List<String> lines = new ArrayList<>();
            lines.add("# MariaDB optimizer model accuracy");
            lines.add("");
            lines.add(header + ".");
            lines.add("");
            lines.add("Coefficients (fitted by calibrate's corpus on the same server): " + c + ".");
            lines.add("");
            lines.add("| time model | Spearman (joins that finished) | Spearman, >= 100 ms | within 2x, >= 100 ms"
                    + " | interrupted predicted past the limit |");
            lines.add("|---|---|---|---|---|");
            lines.add(timeRow("join graph alone (no statistics)", o -> MySqlFit.graphSeconds(o, c), limit));
            lines.add(timeRow("replayed on the tables' statistics", o -> MySqlFit.seconds(o, c), limit));
            lines.add("");
            lines.add(memoryLine(c));
            for (String f : failed) {
                lines.add("");
                lines.add("left out: " + f);
            }
            Files.write(dir.resolve("report.md"), lines);
            lines.forEach(System.out::println);
        }

        private String timeRow(String label, ToDoubleFunction<MySqlFit.Observation> predicted, Duration limit) {
            List<MySqlFit.Observation> finished = measured.stream().filter(m -> !m.interrupted())
                    .map(Measured::observation).filter(o -> o.count() > 0).toList();
            List<MySqlFit.Observation> longOnes = finished.stream().filter(o -> o.seconds() >= LONG_SECONDS).toList();
            long within = longOnes.stream().filter(o -> within2x(predicted.applyAsDouble(o), o.seconds())).count();
            List<MySqlFit.Observation> cut = measured.stream().filter(Measured::interrupted)
                    .map(Measured::observation).toList();
            long past = cut.stream().filter(o -> predicted.applyAsDouble(o) >= limit.toMillis() / 1000.0).count();
            return String.format(Locale.ROOT, "| %s | %s | %s | %d of %d | %d of %d |", label,
                    spearman(finished, MySqlFit.Observation::seconds, predicted),
                    spearman(longOnes, MySqlFit.Observation::seconds, predicted), within, longOnes.size(), past,
                    cut.size());
        }

        private String memoryLine(MySqlCoefficients c) {
            List<MySqlFit.Observation> with = measured.stream().map(Measured::observation)
                    .filter(o -> o.bytes().isPresent() && o.tokens() + o.tables() > 0).toList();
            ToDoubleFunction<MySqlFit.Observation> measuredBytes = o -> o.bytes().getAsLong();
            ToDoubleFunction<MySqlFit.Observation> predictedBytes = o -> MySqlFit.bytes(o, c);
            List<MySqlFit.Observation> large = with.stream().filter(o -> o.bytes().getAsLong() >= LARGE_BYTES).toList();
            long within = large.stream().filter(o -> within2x(MySqlFit.bytes(o, c), o.bytes().getAsLong())).count();
            return String.format(Locale.ROOT, "Memory (arena, MAX_MEMORY_USED over a fresh connection's): Spearman"
                    + " %s; above 1 MiB %s, %d of %d within 2x.", spearman(with, measuredBytes, predictedBytes),
                    spearman(large, measuredBytes, predictedBytes), within, large.size());
        }

        /** "0.953 over 40", or "n/a over 1" where fewer than two statements leave no rank to correlate. */
        private static String spearman(List<MySqlFit.Observation> over, ToDoubleFunction<MySqlFit.Observation> measured,
                                       ToDoubleFunction<MySqlFit.Observation> predicted) {
            if (over.size() < 2) {
                return "n/a over " + over.size();
            }
            return String.format(Locale.ROOT, "%.3f over %d", RankCorrelation.spearman(
                    over.stream().mapToDouble(measured).toArray(), over.stream().mapToDouble(predicted).toArray()),
                    over.size());
        }

        private static boolean within2x(double predicted, double measured) {
            double ratio = predicted / measured;
            return ratio >= 0.5 && ratio <= 2;
        }
    }

    private final OptimizerProbe probe;
    private final SteadyTiming timing;
    private final Catalog catalog;
    private final MySqlFit fit = new MySqlFit();

    AccuracyMeasurement(OptimizerProbe probe, SteadyTiming timing, Catalog catalog) {
        this.probe = probe;
        this.timing = timing;
        this.catalog = catalog;
    }

    Result run(List<OptimizerCase> cases, Consumer<String> progress) {
        List<Measured> measured = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        for (OptimizerCase statement : cases) {
            try {
                OptimizerProbe.Measured m = timing.measure(() -> probe.measure(statement.sql(), statement.settings()));
                measured.add(new Measured(fit.observe(statement, m, catalog), false));
                progress.accept(String.format(Locale.ROOT, "%s: %.4f s", statement.name(), m.seconds()));
            } catch (SQLException e) {
                if (e.getErrorCode() == STATEMENT_TIMEOUT) {
                    measured.add(new Measured(fit.observe(statement, new OptimizerProbe.Measured(
                            probe.limit().toMillis() / 1000.0, OptionalLong.empty()), catalog), true));
                    progress.accept(statement.name() + ": interrupted at the limit");
                } else {
                    failed.add(statement.name() + ": " + e.getMessage());
                    progress.accept(statement.name() + ": left out: " + e.getMessage());
                }
            }
        }
        return new Result(measured, failed);
    }
}

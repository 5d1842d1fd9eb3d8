package io.memogate.proxy.calibrate.mysql;

import io.memogate.estimator.Catalog;
import io.memogate.estimator.mysql.MySqlCoefficients;
import io.memogate.proxy.calibrate.RankCorrelation;
import io.memogate.proxy.calibrate.SpearmanInterval;
import java.io.PrintWriter;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.ToDoubleFunction;

/**
 * A MySQL/MariaDB calibration: each statement measured ({@link OptimizerProbe}; its time the median of
 * {@value #ROUNDS} passes over the statements), observed by the model
 * ({@link MySqlFit}), the coefficients fitted, and a report of the model's accuracy before and after: Spearman's
 * rank correlation and the share within 2x, for time over the join searches (above 100 ms) and for memory over the
 * statements measured (above 1 MiB). A statement that fails or is interrupted at max_statement_time is reported
 * and left out.
 */
public final class MySqlCalibration {

    private static final double LONG_SECONDS = 0.1;
    /**
     * Passes over the statements: a statement's time is its median over them. The same EXPLAIN measured
     * 1.8-2.7 s across five calibrations on a quiet 2-vCPU machine; passes rather than repeats in a row, so that
     * one slow stretch of the machine's does not fall on all of a statement's measurements.
     */
    static final int ROUNDS = 3;
    /** A statement slower than this is measured once: its repeats would cost minutes of a user's corpus. */
    static final double REPEATED_BELOW_SECONDS = 10;
    private static final double LARGE_BYTES = 1 << 20;

    /** What was measured, the coefficients before and after, and the statements left out and why. */
    public record Result(List<MySqlFit.Observation> observations, List<String> failed, MySqlCoefficients start,
                         MySqlCoefficients fitted) {
    }

    private final MySqlFit fit = new MySqlFit();

    public Result run(List<OptimizerCase> cases, OptimizerProbe probe, MySqlCoefficients start,
                      Consumer<String> progress) {
        return run(cases, probe, Catalog.NONE, start, progress);
    }

    /** As {@link #run(List, OptimizerProbe, MySqlCoefficients, Consumer)}, the model knowing {@code catalog}. */
    public Result run(List<OptimizerCase> cases, OptimizerProbe probe, Catalog catalog, MySqlCoefficients start,
                      Consumer<String> progress) {
        List<Timings> measured = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        for (OptimizerCase statement : cases) {
            try {
                OptimizerProbe.Measured first = probe.measure(statement.sql(), statement.settings());
                measured.add(new Timings(statement, first));
                progress.accept(String.format(Locale.ROOT, "%s: %.4f s, %s", statement.name(), first.seconds(),
                        first.bytes().isPresent() ? first.bytes().getAsLong() + " bytes" : "memory not measured"));
            } catch (SQLException e) {
                failed.add(statement.name() + ": " + e.getMessage());
                progress.accept(statement.name() + ": left out: " + e.getMessage());
            }
        }
        for (int round = 2; round <= ROUNDS; round++) {
            for (Timings t : measured) {
                if (t.first.seconds() < REPEATED_BELOW_SECONDS) {
                    try {
                        t.seconds.add(probe.measure(t.statement.sql(), t.statement.settings()).seconds());
                    } catch (SQLException again) {
                        progress.accept(t.statement.name() + ": round " + round + " left out: " + again.getMessage());
                    }
                }
            }
        }
        List<MySqlFit.Observation> observations = new ArrayList<>();
        for (Timings t : measured) {
            observations.add(fit.observe(t.statement, t.median(), catalog));
        }
        return new Result(observations, failed, start, MySqlFit.fit(observations, start));
    }

    /** A statement, its first measurement and the times of every round it was measured in. */
    private static final class Timings {
        final OptimizerCase statement;
        final OptimizerProbe.Measured first;
        final List<Double> seconds = new ArrayList<>();

        Timings(OptimizerCase statement, OptimizerProbe.Measured first) {
            this.statement = statement;
            this.first = first;
            seconds.add(first.seconds());
        }

        /** The median time, with the first round's memory (the same in every round: the statement's arena). */
        OptimizerProbe.Measured median() {
            double[] sorted = seconds.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            int middle = sorted.length / 2;
            double median = sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
            return new OptimizerProbe.Measured(median, first.bytes());
        }
    }

    /** The observations of several runs together, fitted again as one. */
    public static Result merge(List<Result> results, MySqlCoefficients start) {
        List<MySqlFit.Observation> observations = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        for (Result r : results) {
            observations.addAll(r.observations());
            failed.addAll(r.failed());
        }
        return new Result(observations, failed, start, MySqlFit.fit(observations, start));
    }

    /**
     * The table of statements and the accuracy before and after, with a warning for each quantity the fitted
     * coefficients predict worse than the starting ones by both Spearman and the share within 2x.
     */
    public static void print(Result result, PrintWriter out) {
        out.println("statement | measured s | predicted s before | after | measured bytes | predicted bytes before | after");
        for (MySqlFit.Observation o : result.observations()) {
            out.printf(Locale.ROOT, "%s | %.4f | %.4g | %.4g | %s | %.0f | %.0f%n", o.statement().name(), o.seconds(),
                    MySqlFit.seconds(o, result.start()), MySqlFit.seconds(o, result.fitted()),
                    o.bytes().isPresent() ? Long.toString(o.bytes().getAsLong()) : "-",
                    MySqlFit.bytes(o, result.start()), MySqlFit.bytes(o, result.fitted()));
        }
        for (String failure : result.failed()) {
            out.println("left out: " + failure);
        }
        Optional<Accuracy> timeBefore = accuracy(result, result.start(), TimeModel.MODEL);
        Optional<Accuracy> timeAfter = accuracy(result, result.fitted(), TimeModel.MODEL);
        Optional<Accuracy> memoryBefore = accuracy(result, result.start(), null);
        Optional<Accuracy> memoryAfter = accuracy(result, result.fitted(), null);
        out.println(line("time before", timeBefore, true));
        out.println(line("time after", timeAfter, true));
        warning("time", timeBefore, timeAfter).ifPresent(out::println);
        out.println(line("time from the join graph alone, after", accuracy(result, result.fitted(), TimeModel.GRAPH),
                true));
        out.println(line("memory before", memoryBefore, false));
        out.println(line("memory after", memoryAfter, false));
        warning("memory", memoryBefore, memoryAfter).ifPresent(out::println);
    }

    /** Which prediction an accuracy line reads. */
    enum TimeModel { MODEL, GRAPH }

    /**
     * How well one quantity is predicted: Spearman over the statements that have it (with its interval), and of
     * those above the size worth gating ({@code large}), how many are within 2x.
     */
    record Accuracy(double spearman, SpearmanInterval interval, int statements, long within, int large) {

        /** Worse than {@code before} by both figures. */
        boolean worseThan(Accuracy before) {
            return spearman < before.spearman && large > 0 && within < before.within;
        }
    }

    /**
     * One accuracy line: Spearman over the statements that have the quantity (with its {@link SpearmanInterval} where
     * there are enough of them), and the share within 2x; or that too few statements were measured.
     */
    static String line(String label, Optional<Accuracy> accuracy, boolean time) {
        return accuracy.map(a -> String.format(Locale.ROOT, "%s: Spearman %.3f%s over %d statements; %d of %d within"
                        + " 2x above %s", label, a.spearman(),
                        Double.isNaN(a.interval().low()) ? "" : " (90% interval " + a.interval().describe() + ")",
                        a.statements(), a.within(), a.large(), time ? "100 ms" : "1 MiB"))
                .orElse(label + ": too few statements measured");
    }

    private static Optional<String> warning(String quantity, Optional<Accuracy> before, Optional<Accuracy> after) {
        if (before.isEmpty() || after.isEmpty() || !after.get().worseThan(before.get())) {
            return Optional.empty();
        }
        Accuracy b = before.get();
        Accuracy a = after.get();
        return Optional.of(String.format(Locale.ROOT, "warning: the fitted coefficients predict the optimizer's %s"
                + " worse than the starting ones (Spearman %.3f -> %.3f, within 2x %d -> %d of %d); check the lines"
                + " above, measure more statements, or keep the starting coefficients (leave"
                + " estimator.mysqlCoefficients unset)", quantity, b.spearman(), a.spearman(), b.within(), a.within(),
                a.large()));
    }

    /**
     * The accuracy of one quantity under {@code c}: time as the model predicts it ({@code MODEL}: replayed on
     * statistics where read) or from the join graph alone ({@code GRAPH}), memory for null; empty with fewer than
     * two statements that have it.
     */
    static Optional<Accuracy> accuracy(Result result, MySqlCoefficients c, TimeModel model) {
        boolean time = model != null;
        List<MySqlFit.Observation> with = result.observations().stream()
                .filter(o -> time ? o.count() > 0 : o.bytes().isPresent() && o.tokens() + o.tables() > 0).toList();
        ToDoubleFunction<MySqlFit.Observation> measured = time ? MySqlFit.Observation::seconds
                : o -> o.bytes().getAsLong();
        ToDoubleFunction<MySqlFit.Observation> predicted = model == TimeModel.GRAPH ? o -> MySqlFit.graphSeconds(o, c)
                : time ? o -> MySqlFit.seconds(o, c) : o -> MySqlFit.bytes(o, c);
        if (with.size() < 2) {
            return Optional.empty();
        }
        double[] measuredValues = with.stream().mapToDouble(measured).toArray();
        double[] predictedValues = with.stream().mapToDouble(predicted).toArray();
        double bound = time ? LONG_SECONDS : LARGE_BYTES;
        List<MySqlFit.Observation> large = with.stream().filter(o -> measured.applyAsDouble(o) >= bound).toList();
        long within = large.stream().filter(o -> {
            double ratio = predicted.applyAsDouble(o) / measured.applyAsDouble(o);
            return ratio >= 0.5 && ratio <= 2;
        }).count();
        return Optional.of(new Accuracy(RankCorrelation.spearman(measuredValues, predictedValues),
                SpearmanInterval.of(measuredValues, predictedValues), with.size(), within, large.size()));
    }
}

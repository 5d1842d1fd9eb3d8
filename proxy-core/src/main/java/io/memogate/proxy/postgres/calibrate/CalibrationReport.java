package io.memogate.proxy.postgres.calibrate;

import io.memogate.estimator.postgres.MemoryCoefficients;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What a calibration prints: one row per statement measured (its estimate by the starting coefficients
 * and by the fitted ones, and the fitted ratio), the statements skipped and why, the coefficients before
 * and after, and {@link AccuracyStatistics} before and after the fit, with a {@link #warning()} when the fit does
 * worse than where it started.
 *
 * @param result what was measured
 * @param before the coefficients the estimates started from
 * @param fit the fitted coefficients
 * @param tiers the scale tier agreement is judged on
 */
public record CalibrationReport(Calibration.Result result, MemoryCoefficients before, CoefficientFit fit,
                                StaticTiers tiers) {

    public static final String TABLE_FORMAT = "%-32s %9s %11s %12s %12s %12s %7s%n";

    public AccuracyStatistics statisticsBefore() {
        return statistics(before);
    }

    public AccuracyStatistics statisticsAfter() {
        return statistics(fit.coefficients());
    }

    /** The accuracy of {@code coefficients} on this corpus. */
    public AccuracyStatistics statistics(MemoryCoefficients coefficients) {
        return AccuracyStatistics.of(result.measured().stream()
                .map(m -> new Observation(m.measuredBytes(), estimate(m, coefficients))).toList(), tiers);
    }

    public void print(PrintWriter out) {
        out.printf(Locale.ROOT, TABLE_FORMAT, "statement", "relations", "pairs", "measured", "est. before",
                "est. after", "ratio");
        for (Measurement m : result.measured()) {
            long after = estimate(m, fit.coefficients());
            out.printf(Locale.ROOT, TABLE_FORMAT, m.name(), m.relations(), m.memoPairs(), human(m.measuredBytes()),
                    human(estimate(m, before)), human(after),
                    String.format(Locale.ROOT, "%.2f", (double) after / m.measuredBytes()));
        }
        for (Calibration.Skipped s : result.skipped()) {
            out.println("skipped " + s.name() + ": " + s.reason());
        }
        out.println();
        out.println("measured " + result.measured().size() + " statements; skipped " + result.skipped().size()
                + "; bypassed by the estimator " + result.bypassed());
        out.println("coefficients before: " + coefficients(before));
        out.println("coefficients after:  " + coefficients(fit.coefficients()));
        if (!fit.kept().isEmpty()) {
            out.println("kept at their starting values (exercised by fewer than " + CoefficientFit.MIN_SUPPORT
                    + " measured statements, too few to fit): " + String.join(", ", fit.kept()));
        }
        AccuracyStatistics before = statisticsBefore();
        AccuracyStatistics after = statisticsAfter();
        out.println("before: " + before.summary());
        out.println("after:  " + after.summary());
        warning(before, after).ifPresent(out::println);
        out.println("tiers: t0 " + human(tiers.t0()) + ", t1 " + human(tiers.t1()) + ", t2 " + human(tiers.t2())
                + " (an idle proxy's thresholds)");
        out.flush();
    }

    /**
     * What to tell the user when the fitted coefficients do worse than the starting ones by both figures the file is
     * judged by, Spearman and the share within 2x over the statements above 1 MiB; empty otherwise. The fit weighs every
     * measured statement's relative error alike (see {@link CoefficientFit}), so on a corpus of mostly small
     * statements, or of shapes one price per term cannot serve (a star planned for its first rows against a clique),
     * it can rank the large ones, those admission is for, worse than the coefficients it started from.
     */
    public Optional<String> warning() {
        return warning(statisticsBefore(), statisticsAfter());
    }

    private static Optional<String> warning(AccuracyStatistics before, AccuracyStatistics after) {
        if (!(after.spearman() < before.spearman()) || !(after.withinTwice() < before.withinTwice())) {
            return Optional.empty();
        }
        return Optional.of(String.format(Locale.ROOT, "warning: the fitted coefficients do worse than the starting"
                + " ones on the %d statements above 1 MiB (Spearman %.3f -> %.3f, within 2x %.0f%% -> %.0f%%); the fit"
                + " weighs the relative error of all %d statements alike, the small ones too. Check the ratios above,"
                + " measure more statements of the sizes you gate, or keep the starting coefficients (leave"
                + " estimator.coefficients unset)", after.aboveFloor(), before.spearman(), after.spearman(),
                100 * before.withinTwice(), 100 * after.withinTwice(), after.statements()));
    }

    /** The comment lines a coefficients file starts with. */
    public List<String> header(String serverVersion, String date) {
        AccuracyStatistics before = statisticsBefore();
        AccuracyStatistics after = statisticsAfter();
        List<String> header = new ArrayList<>(List.of(
                "Memogate planner-memory coefficients, fitted by `memogate calibrate` (bytes).",
                "server: " + serverVersion,
                "date: " + date,
                "corpus: " + result.measured().size() + " statements measured, " + result.skipped().size()
                        + " skipped, " + result.bypassed() + " bypassed",
                "fitted: " + String.join(", ", fit.fitted())
                        + (fit.kept().isEmpty() ? "" : "; kept at their starting values: " + String.join(", ", fit.kept())),
                "before: " + before.summary(),
                "after:  " + after.summary()));
        warning(before, after).ifPresent(header::add);
        return List.copyOf(header);
    }

    static long estimate(Measurement m, MemoryCoefficients coefficients) {
        return (long) Math.ceil(m.terms().bytes(coefficients));
    }

    static String coefficients(MemoryCoefficients c) {
        double[] values = c.toArray();
        StringBuilder out = new StringBuilder();
        for (int j = 0; j < values.length; j++) {
            out.append(j == 0 ? "" : ", ").append(MemoryCoefficients.NAMES.get(j)).append(' ')
                    .append(String.format(Locale.ROOT, "%.1f", values[j]));
        }
        return out.toString();
    }

    /** 612 kB, 25.3 MB, 5.30 GB (powers of 1024, as EXPLAIN's kB are). */
    static String human(long bytes) {
        if (bytes < 1024 * 1024) {
            return String.format(Locale.ROOT, "%.0f kB", bytes / 1024.0);
        }
        if (bytes < 1024L * 1024 * 1024) {
            return String.format(Locale.ROOT, "%.1f MB", bytes / (1024.0 * 1024));
        }
        return String.format(Locale.ROOT, "%.2f GB", bytes / (1024.0 * 1024 * 1024));
    }
}

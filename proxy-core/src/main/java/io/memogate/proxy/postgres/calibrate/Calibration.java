package io.memogate.proxy.postgres.calibrate;

import io.memogate.estimator.Catalog;
import io.memogate.estimator.CompileEstimate;
import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.PreparedStatementTexts;
import io.memogate.estimator.postgres.PlannerSettings;
import io.memogate.proxy.config.ByteSize;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Measures a corpus on one session: each statement the estimator does not bypass, and whose estimate
 * (by the coefficients the estimator was built with) is at most {@code maxEstimateBytes}, is planned
 * with EXPLAIN (MEMORY). A statement the server refuses (a syntax error, a missing table, the
 * statement_timeout) is recorded as skipped with the server's message and the run goes on: a corpus of
 * someone's queries always holds a few that do not fit the database at hand.
 */
public final class Calibration {

    /** A statement not measured, and why. */
    public record Skipped(String name, String reason) {}

    /**
     * @param measured statements measured, in corpus order
     * @param skipped statements refused by the server or over the estimate limit
     * @param bypassed statements the estimator bypasses (not planned, or at most one relation)
     */
    public record Result(List<Measurement> measured, List<Skipped> skipped, int bypassed) {

        /** Nothing measured yet. */
        public static final Result NONE = new Result(List.of(), List.of(), 0);

        public Result {
            measured = List.copyOf(measured);
            skipped = List.copyOf(skipped);
        }

        /** This result followed by {@code next}'s (corpora measured one after another). */
        public Result plus(Result next) {
            List<Measurement> allMeasured = new ArrayList<>(measured);
            allMeasured.addAll(next.measured);
            List<Skipped> allSkipped = new ArrayList<>(skipped);
            allSkipped.addAll(next.skipped);
            return new Result(allMeasured, allSkipped, bypassed + next.bypassed);
        }
    }

    private final CompileEstimator estimator;
    private final PlannerSettings settings;
    private final long maxEstimateBytes;

    public Calibration(CompileEstimator estimator, PlannerSettings settings, long maxEstimateBytes) {
        this.estimator = Objects.requireNonNull(estimator, "estimator");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.maxEstimateBytes = maxEstimateBytes;
    }

    /**
     * @param catalog the catalog of the database measured on ({@code ServerCatalog}), which the estimate reads
     *     as the proxy reads it
     * @param progress told each statement's outcome as it comes, for a user watching a long run
     */
    public Result measure(PlannerMemory memory, List<CorpusStatement> corpus, Catalog catalog,
                          Consumer<String> progress) {
        List<Measurement> measured = new ArrayList<>();
        List<Skipped> skipped = new ArrayList<>();
        int bypassed = 0;
        for (CorpusStatement statement : corpus) {
            CompileEstimate estimate = estimator.estimate(statement.sql(), settings, PreparedStatementTexts.NONE,
                    catalog);
            if (estimate.bypass()) {
                bypassed++;
                continue;
            }
            if (estimate.estimatedBytes() > maxEstimateBytes) {
                skipped.add(new Skipped(statement.name(), "estimated " + CalibrationReport.human(estimate.estimatedBytes())
                        + ", over --max-estimate " + ByteSize.ofBytes(maxEstimateBytes) + ": not planned"));
                continue;
            }
            try {
                long bytes = memory.measure(statement.sql());
                measured.add(new Measurement(statement.name(), estimate.relations(), estimate.memoPairs(),
                        estimate.terms(), Math.max(1, bytes)));
                progress.accept(statement.name() + ": " + CalibrationReport.human(bytes));
            } catch (SQLException e) {
                String message = String.valueOf(e.getMessage()).lines().findFirst().orElse("");
                skipped.add(new Skipped(statement.name(), "the server refused it: " + message));
                progress.accept(statement.name() + ": skipped, " + message);
            }
        }
        return new Result(measured, skipped, bypassed);
    }
}

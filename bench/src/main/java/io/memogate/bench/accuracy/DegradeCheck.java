package io.memogate.bench.accuracy;

import io.memogate.estimator.Catalog;
import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.PreparedStatementTexts;
import io.memogate.estimator.postgres.PlannerSettings;
import io.memogate.proxy.admission.Degradation;
import io.memogate.proxy.postgres.DegradeLadder;
import io.memogate.proxy.postgres.calibrate.PlannerMemory;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code --degrade-target}: what the proxy's degrade ladder ({@link DegradeLadder}) makes of a statement estimated
 * above the target, beside what the same ladder without its Memoize step makes of it (the baseline that step is
 * measured against): the first step whose estimate fits, as the proxy chooses it, and the planner memory PostgreSQL
 * then reports under it, measured in the same session.
 */
final class DegradeCheck {

    private static final String MEMOIZE = "enable_memoize";

    private final long targetBytes;
    private final CompileEstimator estimator;

    DegradeCheck(long targetBytes, CompileEstimator estimator) {
        this.targetBytes = targetBytes;
        this.estimator = estimator;
    }

    long targetBytes() {
        return targetBytes;
    }

    /**
     * A step of a ladder chosen for a statement.
     *
     * @param settings the settings it changes, as the proxy's NOTICE names them
     * @param measuredBytes the planner's memory under them; -1 when the server did not plan it
     */
    record Step(String settings, long estimatedBytes, long measuredBytes) {
    }

    /**
     * One statement estimated above the target, planned as it is and as each ladder degrades it.
     *
     * @param ladder the proxy's choice; empty when no step fits (the statement is then admitted alone, as it is)
     * @param withoutMemoize the choice of the ladder without its Memoize step
     */
    record Degraded(Planned planned, long targetBytes, Optional<Step> ladder, Optional<Step> withoutMemoize) {

        /** The planner memory under {@code choice}, or as it is when no step fits; -1 when not planned. */
        long measuredBytes(Optional<Step> choice) {
            return choice.map(Step::measuredBytes).orElse(planned.measuredBytes());
        }
    }

    /** Both ladders' choices for {@code planned}, measured on {@code connection}, set to {@code profile}. */
    Degraded check(Connection connection, Planned planned, String sql, Profile profile, Catalog catalog)
            throws SQLException {
        PlannerSettings settings = profile.plannerSettings();
        List<Degradation> ladder = DegradeLadder.of(settings);
        List<Degradation> withoutMemoize = ladder.stream().filter(step -> !step.settings().containsKey(MEMOIZE))
                .toList();
        return new Degraded(planned, targetBytes, measured(connection, sql, settings, catalog, ladder),
                measured(connection, sql, settings, catalog, withoutMemoize));
    }

    private Optional<Step> measured(Connection connection, String sql, PlannerSettings settings, Catalog catalog,
                                    List<Degradation> ladder) throws SQLException {
        for (Degradation step : ladder) {
            long estimated = estimator.estimate(sql, step.applyTo(settings), PreparedStatementTexts.NONE, catalog)
                    .estimatedBytes();
            if (estimated <= targetBytes) {
                return Optional.of(new Step(step.describe(), estimated, planUnder(connection, sql, step)));
            }
        }
        return Optional.empty();
    }

    /**
     * The planner memory of {@code sql} under {@code step}, set in a transaction block that is rolled back: the
     * session has its profile's settings again after, as the proxy's own block gives them back.
     */
    private static long planUnder(Connection connection, String sql, Degradation step) throws SQLException {
        PlannerMemory memory = new PlannerMemory(connection);
        connection.setAutoCommit(false);
        try {
            for (Map.Entry<String, String> setting : step.settings().entrySet()) {
                memory.set(setting.getKey(), setting.getValue());
            }
            return memory.measure(sql);
        } catch (SQLException e) {
            return -1;
        } finally {
            connection.rollback();
            connection.setAutoCommit(true);
        }
    }
}

package io.memogate.proxy.mysql;

import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.EstimatorStatistics;
import io.memogate.estimator.mysql.MySqlCoefficients;
import io.memogate.estimator.mysql.MySqlDialect;
import io.memogate.estimator.mysql.OptimizerSettings;
import io.memogate.proxy.admission.CurrentDialectEstimator;
import io.memogate.proxy.admission.EstimatorInForce;
import java.util.function.Supplier;

/**
 * The MySQL dialect's estimator in force, with the coefficients the configuration names
 * ({@code estimator.mysqlCoefficients}, the file {@code memogate calibrate} wrote for a MariaDB or MySQL server),
 * swapped when a reload brings others ({@link CurrentDialectEstimator}). Thread-safe.
 */
public final class CurrentMySqlEstimator implements EstimatorInForce {

    private final CurrentDialectEstimator<MySqlCoefficients> current;

    /** @param coefficients the coefficients in force, read at each statement */
    public CurrentMySqlEstimator(Supplier<MySqlCoefficients> coefficients) {
        this.current = new CurrentDialectEstimator<>(coefficients,
                c -> new CompileEstimator(new MySqlDialect(c, OptimizerSettings.MARIADB_DEFAULTS)));
    }

    @Override
    public CompileEstimator get() {
        return current.get();
    }

    /** Counts since this was built, over every estimator it has had. */
    @Override
    public EstimatorStatistics statistics() {
        return current.statistics();
    }
}

package io.memogate.proxy.mysql;

import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.EstimatorStatistics;
import io.memogate.estimator.mysql.MySqlCoefficients;
import io.memogate.estimator.mysql.MySqlDialect;
import io.memogate.estimator.mysql.OptimizerSettings;
import io.memogate.proxy.admission.EstimatorInForce;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The MySQL dialect's estimator in force, with the coefficients the configuration names
 * ({@code estimator.mysqlCoefficients}, the file {@code memogate calibrate} wrote for a MariaDB or MySQL server),
 * asked for at each statement: when a reload brings other coefficients, the next statement swaps in a new
 * estimator with an empty cache (cached estimates hold the old coefficients' bytes and seconds). The statistics
 * stay monotonic across swaps: those of retired estimators are carried over. Thread-safe.
 */
public final class CurrentMySqlEstimator implements EstimatorInForce {

    /** One immutable state, so that a reader never sees a new estimator with the old carried-over counts. */
    private record State(MySqlCoefficients coefficients, CompileEstimator estimator, EstimatorStatistics retired) {}

    private final Supplier<MySqlCoefficients> coefficients;
    private volatile State state;

    /** @param coefficients the coefficients in force, read at each statement */
    public CurrentMySqlEstimator(Supplier<MySqlCoefficients> coefficients) {
        this.coefficients = Objects.requireNonNull(coefficients, "coefficients");
        MySqlCoefficients first = coefficients.get();
        this.state = new State(first, estimatorFor(first), new EstimatorStatistics(0, 0, 0));
    }

    private static CompileEstimator estimatorFor(MySqlCoefficients coefficients) {
        return new CompileEstimator(new MySqlDialect(coefficients, OptimizerSettings.MARIADB_DEFAULTS));
    }

    @Override
    public CompileEstimator get() {
        State s = state;
        MySqlCoefficients now = coefficients.get();
        return now.equals(s.coefficients()) ? s.estimator() : swap(now);
    }

    private synchronized CompileEstimator swap(MySqlCoefficients now) {
        State old = state;
        if (!old.coefficients().equals(now)) {
            state = new State(now, estimatorFor(now), old.retired().plus(old.estimator().statistics()));
        }
        return state.estimator();
    }

    /** Counts since this was built, over every estimator it has had. */
    @Override
    public EstimatorStatistics statistics() {
        State s = state;
        return s.retired().plus(s.estimator().statistics());
    }
}

package io.memogate.proxy.admission;

import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.EstimatorStatistics;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A dialect's estimator in force, with the coefficients the configuration names (the file {@code memogate
 * calibrate} wrote for such a server), asked for at each statement: when a reload brings other coefficients, the
 * next statement swaps in a new estimator with an empty cache (cached estimates hold the old coefficients'
 * bytes). The statistics stay monotonic across swaps: those of retired estimators are carried over. Thread-safe.
 *
 * @param <C> the dialect's coefficients, compared by value
 */
public final class CurrentDialectEstimator<C> implements EstimatorInForce {

    /** One immutable state, so that a reader never sees a new estimator with the old carried-over counts. */
    private record State<C>(C coefficients, CompileEstimator estimator, EstimatorStatistics retired) {}

    private final Supplier<C> coefficients;
    private final Function<C, CompileEstimator> estimatorFor;
    private volatile State<C> state;

    /**
     * @param coefficients the coefficients in force, read at each statement
     * @param estimatorFor the dialect's estimator with given coefficients
     */
    public CurrentDialectEstimator(Supplier<C> coefficients, Function<C, CompileEstimator> estimatorFor) {
        this.coefficients = Objects.requireNonNull(coefficients, "coefficients");
        this.estimatorFor = Objects.requireNonNull(estimatorFor, "estimatorFor");
        C first = coefficients.get();
        this.state = new State<>(first, estimatorFor.apply(first), new EstimatorStatistics(0, 0, 0));
    }

    @Override
    public CompileEstimator get() {
        State<C> s = state;
        C now = coefficients.get();
        return now.equals(s.coefficients()) ? s.estimator() : swap(now);
    }

    private synchronized CompileEstimator swap(C now) {
        State<C> old = state;
        if (!old.coefficients().equals(now)) {
            state = new State<>(now, estimatorFor.apply(now), old.retired().plus(old.estimator().statistics()));
        }
        return state.estimator();
    }

    /** Counts since this was built, over every estimator it has had. */
    @Override
    public EstimatorStatistics statistics() {
        State<C> s = state;
        return s.retired().plus(s.estimator().statistics());
    }
}

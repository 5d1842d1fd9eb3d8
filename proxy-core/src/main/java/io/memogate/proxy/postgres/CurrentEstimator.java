package io.memogate.proxy.postgres;

import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.EstimatorStatistics;
import io.memogate.estimator.postgres.MemoryCoefficients;
import io.memogate.estimator.postgres.PostgresDialect;
import io.memogate.proxy.admission.EstimatorInForce;
import java.util.Objects;

/**
 * PostgreSQL's estimator in force, built with the configuration's memory coefficients ({@code estimator.coefficients}).
 * A reload that brings other coefficients swaps in a new estimator, with an empty cache, since cached
 * estimates hold bytes computed by the old ones; statements being estimated finish with the estimator they
 * started with. The statistics stay monotonic across swaps (metrics take rates of them): those of retired
 * estimators are carried over.
 */
public final class CurrentEstimator implements EstimatorInForce {

    /** One immutable state, so that a reader never sees a new estimator with the old carried-over counts. */
    private record State(MemoryCoefficients coefficients, CompileEstimator estimator, EstimatorStatistics retired) {}

    private volatile State state;

    public CurrentEstimator(MemoryCoefficients coefficients) {
        this.state = new State(coefficients, estimatorFor(coefficients), new EstimatorStatistics(0, 0, 0));
    }

    /** A new estimator with the default lexer, cache and parse depth, whose memory model has {@code coefficients}. */
    public static CompileEstimator estimatorFor(MemoryCoefficients coefficients) {
        return new CompileEstimator(new PostgresDialect(Objects.requireNonNull(coefficients)),
                CompileEstimator.DEFAULT_CACHE_SIZE, CompileEstimator.DEFAULT_MAX_PARSE_DEPTH);
    }

    @Override
    public CompileEstimator get() {
        return state.estimator();
    }

    public MemoryCoefficients coefficients() {
        return state.coefficients();
    }

    /** Puts an estimator with {@code coefficients} in force, unless the one in force has them already. */
    public synchronized void use(MemoryCoefficients coefficients) {
        State old = state;
        if (old.coefficients().equals(coefficients)) {
            return;
        }
        state = new State(coefficients, estimatorFor(coefficients), sum(old.retired(), old.estimator().statistics()));
    }

    /** Counts since this was built, over every estimator it has had. */
    @Override
    public EstimatorStatistics statistics() {
        State s = state;
        return sum(s.retired(), s.estimator().statistics());
    }

    private static EstimatorStatistics sum(EstimatorStatistics a, EstimatorStatistics b) {
        return new EstimatorStatistics(a.cacheHits() + b.cacheHits(), a.cacheMisses() + b.cacheMisses(),
                a.lexicalFallbacks() + b.lexicalFallbacks());
    }
}

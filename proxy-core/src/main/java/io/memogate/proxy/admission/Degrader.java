package io.memogate.proxy.admission;

import io.memogate.estimator.Catalog;
import io.memogate.estimator.CompileEstimate;
import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.PreparedStatementTexts;
import io.memogate.estimator.dialect.DialectSettings;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Chooses the settings a statement runs under when it can never fit the compile-memory target: the first of
 * the session's ladder ({@link Degradation}s, least restrictive first) under which the estimate fits. Only a
 * single statement planned before it runs is degraded (a query string of several would run its other statements
 * under the settings too, and a routine's queries are planned after the statement's first answers), and only
 * for the sessions {@link DegradePolicy} names.
 */
final class Degrader {

    private final Supplier<DegradePolicy> policy;
    private final Supplier<CompileEstimator> estimator;
    private final LongSupplier target;

    Degrader(Supplier<DegradePolicy> policy, Supplier<CompileEstimator> estimator, LongSupplier target) {
        this.policy = Objects.requireNonNull(policy, "policy");
        this.estimator = Objects.requireNonNull(estimator, "estimator");
        this.target = Objects.requireNonNull(target, "target");
    }

    /** The tighter settings and the estimate under them, or empty when the statement stays as it is. */
    Optional<Choice> choose(StatementRequest request, Catalog catalog, CompileEstimate estimate,
                            List<Degradation> ladder) {
        if (!policy.get().appliesTo(request.session())) {
            return Optional.empty();
        }
        return fitting(request.sql(), request.settings(), request.prepared(), catalog, estimate, ladder);
    }

    /** The first step of {@code ladder} under which the statement fits the target, whoever sends it. */
    Optional<Choice> fitting(String sql, DialectSettings settings, PreparedStatementTexts prepared, Catalog catalog,
                             CompileEstimate estimate, List<Degradation> ladder) {
        long targetBytes = target.getAsLong();
        if (ladder.isEmpty() || estimate.estimatedBytes() <= targetBytes || estimate.statements() > 1
                || estimate.plannedWhileRunning()) {
            return Optional.empty();
        }
        for (Degradation step : ladder) {
            CompileEstimate tighter = estimator.get().estimate(sql, step.applyTo(settings), prepared, catalog);
            if (tighter.estimatedBytes() <= targetBytes) {
                return Optional.of(new Choice(new Degraded(step, estimate.estimatedBytes(), tighter.estimatedBytes(),
                        targetBytes), tighter));
            }
        }
        return Optional.empty(); // nothing on the ladder fits: admitted alone, as without degrading
    }

    /** The settings chosen, and the estimate the gateways admit. */
    record Choice(Degraded degraded, CompileEstimate estimate) {}
}

package io.memogate.proxy.admission;

import io.memogate.broker.gateway.Tier;
import io.memogate.estimator.Catalog;
import io.memogate.estimator.CompileEstimate;
import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.PreparedStatementTexts;
import io.memogate.estimator.dialect.DialectSettings;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongPredicate;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Chooses the settings a statement runs under when it can never fit the compile-memory target: the first of
 * the session's ladder ({@link Degradation}s, least restrictive first) under which the estimate fits; or, when it
 * has waited admission.degrade.after for its gateways, the first under which it would be admitted at once. Only a
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

    /** Whether the policy in force lets {@code session}'s statements be degraded. */
    boolean appliesTo(SessionInfo session) {
        return policy.get().appliesTo(session);
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

    /**
     * How long the statement may wait for its gateways before {@link #withRoom} is asked; empty when it waits as
     * any other (its session is not one the policy names, no after is set, or it is of a kind never degraded).
     */
    Optional<Duration> after(StatementRequest request, CompileEstimate estimate, List<Degradation> ladder) {
        if (ladder.isEmpty() || estimate.statements() > 1 || estimate.plannedWhileRunning()) {
            return Optional.empty();
        }
        return policy.get().afterFor(request.session());
    }

    /**
     * The first step of {@code ladder} under which the statement, waiting since {@code waited} ago for
     * {@code waitedFor} (empty: the byte budget), would be admitted at once ({@code hasRoom}); empty when none would.
     *
     * @param predicted the wait predicted for it, when that and not its wait so far is why it degrades
     */
    Optional<Choice> withRoom(StatementRequest request, Catalog catalog, CompileEstimate estimate,
                              List<Degradation> ladder, LongPredicate hasRoom, Duration waited,
                              Optional<Tier> waitedFor, Optional<PredictedWait> predicted) {
        for (Degradation step : ladder) {
            CompileEstimate tighter = estimator.get().estimate(request.sql(), step.applyTo(request.settings()),
                    request.prepared(), catalog);
            if (tighter.estimatedBytes() < estimate.estimatedBytes() && hasRoom.test(tighter.estimatedBytes())) {
                return Optional.of(new Choice(new Degraded(step, estimate.estimatedBytes(), tighter.estimatedBytes(),
                        target.getAsLong(), Optional.of(waited), waitedFor, predicted), tighter));
            }
        }
        return Optional.empty();
    }

    /** The settings chosen, and the estimate the gateways admit. */
    record Choice(Degraded degraded, CompileEstimate estimate) {}
}

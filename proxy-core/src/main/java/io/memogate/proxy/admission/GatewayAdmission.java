package io.memogate.proxy.admission;

import io.memogate.broker.gateway.GatewayRejectedException;
import io.memogate.broker.gateway.Sizes;
import io.memogate.broker.gateway.Ticket;
import io.memogate.broker.gateway.WaitingStatement;
import io.memogate.estimator.CompileEstimate;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * One gated statement: its gateway ticket seen as an {@link Admission} while it waits, and as the
 * {@link AdmittedStatement} that gives the permits back when the server's answers show its
 * compilation is over (DESIGN.md, "Admission points and release points"): at the first response of a
 * single simple-protocol statement, at BindComplete for a Bind, at ReadyForQuery for a
 * multi-statement query (which holds the largest statement's permit until then), and on any error or
 * disconnect. A statement whose estimated query is planned while it runs (a DO block's) keeps its permits
 * until its query cycle ends: its first answers come before that planning.
 */
final class GatewayAdmission implements Admission, AdmittedStatement {

    /** Turns the gateways' rejection into the protocol-neutral one, logging it. */
    @FunctionalInterface
    interface Refusals {
        AdmissionRejectedException refused(GatewayRejectedException rejection, CompileEstimate estimate,
                StatementRequest request);
    }

    private final Ticket ticket;
    private final boolean releaseAtFirstResponse;
    private final boolean plannedWhileRunning;
    private final CompletionStage<AdmittedStatement> decision;

    GatewayAdmission(Ticket ticket, CompileEstimate estimate, StatementRequest request, Refusals refusals) {
        this.ticket = ticket;
        this.plannedWhileRunning = estimate.plannedWhileRunning();
        this.releaseAtFirstResponse = request.point() == AdmissionPoint.SIMPLE_QUERY && estimate.statements() <= 1
                && !plannedWhileRunning;
        CompletableFuture<Ticket> admitted = ticket.admitted();
        this.decision = admitted.isDone() && !admitted.isCompletedExceptionally()
                ? CompletableFuture.completedFuture(this)
                : admitted.handle((granted, failure) -> {
                    Throwable cause = failure instanceof CompletionException wrapped ? wrapped.getCause() : failure;
                    if (cause instanceof GatewayRejectedException rejection) {
                        throw refusals.refused(rejection, estimate, request);
                    }
                    if (cause instanceof RuntimeException unchecked) {
                        throw unchecked; // CancellationException after withdraw(), or a bug
                    }
                    return this;
                });
    }

    @Override
    public CompletionStage<AdmittedStatement> decision() {
        return decision;
    }

    @Override
    public boolean withdraw() {
        return ticket.withdraw();
    }

    @Override
    public Optional<WaitNotice> waiting() {
        return ticket.position().map(waiting -> new WaitNotice(describe(waiting), AdmissionHints.queued(waiting.paused())));
    }

    @Override
    public void signal(ReleaseSignal signal) {
        if (signal.isFinal() || signal == ReleaseSignal.FIRST_RESPONSE && releaseAtFirstResponse) {
            ticket.release(); // idempotent: later signals of the same statement change nothing
        }
    }

    @Override
    public boolean plannedWhileRunning() {
        return plannedWhileRunning;
    }

    static String describe(WaitingStatement waiting) {
        String queue = waiting.forBudget() || waiting.tier() == null
                ? "the compile-memory budget" : "the " + waiting.tier() + " gateway";
        return "statement queued for " + queue + ": position " + waiting.position() + ", waited "
                + String.format(Locale.ROOT, "%.1f s", waiting.waited().toNanos() / 1e9)
                + ", estimated planner memory " + Sizes.bytes(waiting.estimateBytes());
    }
}

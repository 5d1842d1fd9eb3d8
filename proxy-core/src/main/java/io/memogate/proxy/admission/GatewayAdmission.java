package io.memogate.proxy.admission;

import io.memogate.broker.gateway.GatewayRejectedException;
import io.memogate.broker.gateway.GatewaysUnavailableException;
import io.memogate.broker.gateway.GatewayTimer;
import io.memogate.broker.gateway.Sizes;
import io.memogate.broker.gateway.Ticket;
import io.memogate.broker.gateway.WaitingStatement;
import io.memogate.estimator.CompileEstimate;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One gated statement: its gateway ticket seen as an {@link Admission} while it waits, and as the
 * {@link AdmittedStatement} that gives the permits back when the server's answers show its
 * compilation is over (DESIGN.md, "Admission points and release points"): at the first response of a
 * single simple-protocol statement, at BindComplete for a Bind, at ReadyForQuery for a
 * multi-statement query (which holds the largest statement's permit until then), and on any error or
 * disconnect. A single statement whose estimated query is planned while it runs (a DO block's) keeps its
 * permits until its query cycle ends, since its first answers come before that planning, but for at most
 * the {@link RunningHold} from when the server starts on it (RUNNING); with a hold of zero it is released
 * like any other.
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
    /** Kept past its first answers, for {@link #hold} at most: zero when it is not planned while it runs. */
    private final Duration hold;
    /**
     * The release once {@link #hold} has passed, started at RUNNING; set and cancelled on the session's event
     * loop, fired on the gateways' timer.
     */
    private volatile GatewayTimer.Cancellable timedRelease = NOT_STARTED;

    private final CompletionStage<AdmittedStatement> decision;

    private static final GatewayTimer.Cancellable NOT_STARTED = () -> { };

    private final RunningHold runningHold;
    /** A final signal came: the permits are back, no hold may start. On the session's event loop. */
    private boolean ended;
    /** Told how long the statement held its tiers, once it gives them back. */
    private final WaitPredictor holds;
    /** When the permits were granted, on {@link #holds}' clock; set before the decision completes. */
    private volatile long grantedAt;
    private volatile boolean granted;
    /** The permits were given back (by the session, or by the hold's timer): the hold is counted once. */
    private final AtomicBoolean released = new AtomicBoolean();

    /** @param holds told how long the statement held its permits, as it gives them back */
    GatewayAdmission(Ticket ticket, CompileEstimate estimate, StatementRequest request, RunningHold runningHold,
            Refusals refusals, WaitPredictor holds) {
        this.ticket = ticket;
        this.holds = holds;
        boolean single = request.point() == AdmissionPoint.PREPARED_EXECUTION || estimate.statements() <= 1;
        // Several statements in one query string keep their permits until ReadyForQuery anyway: no time limit.
        this.hold = single && estimate.plannedWhileRunning() ? runningHold.current() : Duration.ZERO;
        this.releaseAtFirstResponse = request.point() == AdmissionPoint.STATEMENT_TEXT && single && hold.isZero();
        CompletableFuture<Ticket> admitted = ticket.admitted();
        this.runningHold = runningHold;
        boolean grantedAtOnce = admitted.isDone() && !admitted.isCompletedExceptionally();
        if (grantedAtOnce) {
            grantedAt = holds.now();
            granted = true;
        }
        this.decision = grantedAtOnce ? CompletableFuture.completedFuture(this)
                : admitted.handle((grantedTicket, failure) -> {
                    Throwable cause = failure instanceof CompletionException wrapped ? wrapped.getCause() : failure;
                    if (cause instanceof GatewayRejectedException rejection) {
                        throw refusals.refused(rejection, estimate, request);
                    }
                    if (cause instanceof GatewaysUnavailableException unavailable) {
                        throw new AdmissionRejectedException("statement not admitted: the gateways could not decide it",
                                unavailable.getMessage(), "Retry: this says nothing of the server's load.");
                    }
                    if (cause instanceof RuntimeException unchecked) {
                        throw unchecked; // CancellationException after withdraw(), or a bug
                    }
                    grantedAt = holds.now();
                    this.granted = true;
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
        if (signal == ReleaseSignal.RUNNING && !hold.isZero() && !ended) {
            // The hold counts from when the server starts on the statement, not from its admission: in a batch
            // or pipeline it may wait behind earlier statements for long.
            timedRelease = runningHold.releaseAfter(this::releasePermits, hold);
        } else if (signal.isFinal() || signal == ReleaseSignal.FIRST_RESPONSE && releaseAtFirstResponse) {
            ended = true;
            timedRelease.cancel(); // ended within its hold: the timer must not stay queued until then
            releasePermits(); // idempotent: later signals, or the timer having fired already, change nothing
        }
    }

    /** Gives the permits back, and counts how long they were held, once; on the event loop or the hold's timer. */
    private void releasePermits() {
        ticket.release();
        if (granted && released.compareAndSet(false, true)) {
            ticket.highestTier().ifPresent(highest -> holds.released(highest, grantedAt));
        }
    }

    /** Only while there is a hold: with none, the session releases a Bind at BindComplete like any other. */
    @Override
    public boolean plannedWhileRunning() {
        return !hold.isZero();
    }

    static String describe(WaitingStatement waiting) {
        String queue = waiting.forBudget() || waiting.tier() == null
                ? "the compile-memory budget" : "the " + waiting.tier() + " gateway";
        return "statement queued for " + queue + ": position " + waiting.position() + ", waited "
                + String.format(Locale.ROOT, "%.1f s", waiting.waited().toNanos() / 1e9)
                + ", estimated planner memory " + Sizes.bytes(waiting.estimateBytes());
    }
}

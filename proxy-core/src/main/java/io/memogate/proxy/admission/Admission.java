package io.memogate.proxy.admission;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * One statement's way through admission, as the session sees it: a decision that may come later, a way
 * for the client to give up while it waits (a CancelRequest), and what to tell a client kept waiting.
 *
 * <p>The decision completes with the {@link AdmittedStatement} to forward, or exceptionally with an
 * {@link AdmissionRejectedException} (the session answers SQLSTATE 53000) or a
 * {@link java.util.concurrent.CancellationException} after {@link #withdraw()} (answered 57014).
 */
public interface Admission {

    /** Admitted at once, holding nothing: one shared instance, so the relay path allocates nothing. */
    Admission IMMEDIATE = of(CompletableFuture.completedFuture(AdmittedStatement.UNGATED));

    /**
     * Admitted at once because the text can never need a gateway, whatever the planner settings: the
     * server does not plan it, or it names at most one relation. A session may admit later Binds of the
     * same prepared statement without asking again.
     */
    Admission BYPASS = of(CompletableFuture.completedFuture(AdmittedStatement.UNGATED));

    CompletionStage<AdmittedStatement> decision();

    /**
     * Whether, once decided, this admission found the text to be one that can never need a gateway
     * ({@link #BYPASS}): a later one that knows only then (estimated off the event loop) says so here.
     */
    default boolean bypassed() {
        return this == BYPASS;
    }

    /**
     * The client cancelled the statement while it waits: leave the queue. Returns true when it was
     * still waiting (the decision then completes with a CancellationException), false when the decision
     * was already made, in which case the statement goes on and the cancel must go to the server.
     */
    boolean withdraw();

    /** Set when the statement is to run under tighter settings than its session's ({@link AdmissionHook#admit(StatementRequest, java.util.List)}). */
    default Optional<Degraded> degraded() {
        return Optional.empty();
    }

    /** Where the statement waits and why, in words for a NoticeResponse ("queued for the LARGE gateway ..."). */
    Optional<WaitNotice> waiting();

    /** A decision that cannot be withdrawn and says nothing while it waits (tests, plain relays). */
    static Admission of(CompletionStage<AdmittedStatement> decision) {
        return new Admission() {
            @Override
            public CompletionStage<AdmittedStatement> decision() {
                return decision;
            }

            @Override
            public boolean withdraw() {
                return false;
            }

            @Override
            public Optional<WaitNotice> waiting() {
                return Optional.empty();
            }
        };
    }
}

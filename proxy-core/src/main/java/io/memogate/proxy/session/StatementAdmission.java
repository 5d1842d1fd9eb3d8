package io.memogate.proxy.session;

import io.memogate.proxy.admission.Admission;
import io.memogate.proxy.admission.AdmissionRejectedException;
import io.memogate.proxy.admission.AdmittedStatement;
import io.memogate.proxy.admission.ReleaseSignal;
import io.memogate.proxy.admission.WaitNotice;
import io.netty.channel.Channel;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hold, admit, forward: what every protocol does with a statement at its admission point, whatever its
 * wire format. A statement admitted at once goes on without a hop. One that must wait holds the session
 * (what the client sends behind it queues in {@link HeldInput}, and the client is not read), may be withdrawn
 * by a cancel, tells the client once that it is queued, and comes back to the event loop with the decision,
 * where the wing forwards it, refuses it in its own protocol's words, or, when the session ended meanwhile,
 * it is dropped and its permits given back. A failure nobody expected ends the session with an internal error
 * ({@link SessionLoop#failInternally}).
 *
 * <p>The statement's frame is an {@link OwnedFrame}: forwarded or released exactly once, whichever step fails.
 * One statement at a time; used on the session's event loop only.
 */
public final class StatementAdmission {

    /** What the wing does with a statement once its admission is decided, on the session's event loop. */
    public interface Outcome {

        /** It must wait: called once, before the wait begins (PostgreSQL: the server is told to flush). */
        void holding();

        /** Admitted: forward it with {@code admitted}, which the wing's release signals give back. */
        void admitted(OwnedFrame frame, AdmittedStatement admitted);

        /** Refused by its gateway: answered with {@code rejection} in the wing's words instead of run. */
        void rejected(OwnedFrame frame, AdmissionRejectedException rejection);

        /** Withdrawn by a cancel while it waited: answered as a cancelled statement. */
        void cancelled(OwnedFrame frame);

        /** The statement no longer holds the session: what the client sent behind it goes on. */
        void released();
    }

    /** How a wing tells its client, in its own protocol, that a statement is queued. */
    public interface Notices {

        /**
         * For a protocol with no message a server sends unasked (MySQL, TDS): a client kept waiting is not told
         * (SHOW CLIENTS says where it waits).
         */
        Notices NONE = new Notices() {
            @Override
            public boolean betweenMessages() {
                return true;
            }

            @Override
            public void send(WaitNotice notice) {
            }
        };

        /** False while a notice written now would land inside a message relayed in parts; asked again later. */
        boolean betweenMessages();

        void send(WaitNotice notice);
    }

    private static final Logger log = LoggerFactory.getLogger(StatementAdmission.class);

    private final SessionLoop session;
    private final LoopHandoff handoff;
    private final AdmissionWait waiting;
    private boolean holding;

    public StatementAdmission(SessionLoop session, Channel client, LoopHandoff handoff, Notices notices) {
        this.session = session;
        this.handoff = handoff;
        this.waiting = new AdmissionWait(client, notices);
    }

    /** A statement waits for its admission: the session queues what the client sends, and does not read it. */
    public boolean holding() {
        return holding;
    }

    /**
     * Waits for {@code admission}'s decision on {@code frame}, then hands it to {@code outcome}.
     *
     * @param noticeAfter how long it waits before the client is told where (0: never)
     */
    public void admit(Admission admission, OwnedFrame frame, Duration noticeAfter, Outcome outcome) {
        AdmittedStatement atOnce = admittedAtOnce(admission);
        if (atOnce != null) {
            outcome.admitted(frame, atOnce);
            return;
        }
        CompletionStage<AdmittedStatement> decision = admission.decision();
        holding = true;
        outcome.holding();
        waiting.waitFor(admission, noticeAfter);
        decision.whenComplete((admitted, failure) -> handoff.run("admission",
                () -> decided(frame, admitted, failure, outcome), () -> {
                    // A frame not handed on never reached the server, nor its permits a release signal.
                    if (frame.release() && admitted != null) {
                        admitted.signal(ReleaseSignal.DISCONNECT);
                    }
                }));
    }

    /**
     * The fast path: the statement admitted at once (small statements, or no gateway), to forward without a hop
     * and without an {@link Outcome} made for it; null when its decision is still to come or refuses it.
     */
    public static AdmittedStatement admittedAtOnce(Admission admission) {
        return admission.decision() instanceof CompletableFuture<AdmittedStatement> done && done.isDone()
                && !done.isCompletedExceptionally() ? done.join() : null;
    }

    /**
     * Takes the waiting statement out of its queue, so that it is answered as cancelled without reaching the
     * server; false when none waits.
     */
    public boolean withdraw() {
        return waiting.withdraw();
    }

    /** Where the waiting statement is queued, in words; empty when none waits. */
    public Optional<String> waitingWhere() {
        return waiting.where();
    }

    /** The session ended: stop waiting (the decision then finds it ended and gives everything back). */
    public void closed() {
        holding = false;
        waiting.withdraw();
    }

    private void decided(OwnedFrame frame, AdmittedStatement admitted, Throwable failure, Outcome outcome) {
        boolean cancelledAfterGrant = waiting.decided();
        if (session.ended()) {
            frame.release();
            if (admitted != null) {
                admitted.signal(ReleaseSignal.DISCONNECT);
            }
            return;
        }
        Throwable cause = failure instanceof CompletionException wrapped && wrapped.getCause() != null
                ? wrapped.getCause() : failure;
        if (cause instanceof AdmissionRejectedException rejection) {
            outcome.rejected(frame, rejection);
        } else if (cause instanceof CancellationException) {
            outcome.cancelled(frame);
        } else if (cancelledAfterGrant && admitted != null) {
            // Never sent: its permits go back as for a statement whose session went away before it was.
            admitted.signal(ReleaseSignal.DISCONNECT);
            outcome.cancelled(frame);
        } else if (cause != null) {
            frame.release();
            log.error("admission failed for a statement of {}", session, cause);
            session.failInternally("admission failed: " + cause);
            return;
        } else {
            outcome.admitted(frame, admitted);
        }
        holding = false;
        outcome.released();
    }
}

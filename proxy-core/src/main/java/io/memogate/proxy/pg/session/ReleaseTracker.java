package io.memogate.proxy.pg.session;

import io.memogate.proxy.admission.AdmissionPoint;
import io.memogate.proxy.admission.AdmittedStatement;
import io.memogate.proxy.admission.ReleaseSignal;
import java.util.ArrayDeque;

/**
 * Matches the server's responses to the admitted statements they belong to, so each admission hears
 * its release signals (DESIGN.md, "Admission points and release points").
 *
 * <p>The server answers in the order it was sent, so the tracker keeps a FIFO of what is in flight:
 * admitted statements, and a marker for each message that the server ends with ReadyForQuery
 * (Sync, a simple Query, FunctionCall). Then:
 * <ul>
 *   <li>RowDescription / CommandComplete / EmptyQueryResponse / Copy*Response: FIRST_RESPONSE to the
 *       oldest simple query (once);
 *   <li>BindComplete: BIND_COMPLETE to the oldest Bind, unless its statement is
 *       {@linkplain AdmittedStatement#plannedWhileRunning() planned while it runs}: that one is kept
 *       running until its Execute completes (CommandComplete, EmptyQueryResponse, PortalSuspended:
 *       EXECUTE_COMPLETE to the oldest running one) or its cycle ends (the admission may give its permits
 *       back sooner, after {@code admission.holdWhileRunning});
 *   <li>ErrorResponse: ERROR to everything before the next marker, running Binds included — after an
 *       error the server skips to Sync, so those Binds will never complete;
 *   <li>ReadyForQuery: READY_FOR_QUERY to the running Binds and everything up to and including the oldest
 *       marker.
 * </ul>
 * Not thread-safe: used on the session's event loop only.
 */
final class ReleaseTracker {

    private static final Object CYCLE_END = new Object();

    /** Shared entries for statements that hold nothing, so the relay path allocates nothing per statement. */
    private static final PendingBind UNGATED_BIND = new PendingBind(AdmittedStatement.UNGATED);
    private static final PendingQuery UNGATED_QUERY = new PendingQuery(AdmittedStatement.UNGATED);

    private final ArrayDeque<Object> inFlight = new ArrayDeque<>();
    /** Bound statements still planning while they run: all of the oldest cycle, which they came first in. */
    private final ArrayDeque<AdmittedStatement> running = new ArrayDeque<>();
    /** The cycle ends in {@link #inFlight}: ReadyForQuery messages the server still owes. */
    private int cyclesOwed;

    /** A statement forwarded to the server after admission. */
    void admitted(AdmissionPoint point, AdmittedStatement statement) {
        boolean ungated = statement == AdmittedStatement.UNGATED;
        if (point == AdmissionPoint.BIND) {
            inFlight.addLast(ungated ? UNGATED_BIND : new PendingBind(statement));
        } else {
            inFlight.addLast(ungated ? UNGATED_QUERY : new PendingQuery(statement));
        }
    }

    /** A message the server will answer with ReadyForQuery. */
    void cycleEnd() {
        inFlight.addLast(CYCLE_END);
        cyclesOwed++;
    }

    /** Whether the server still owes a ReadyForQuery: a whole Query or batch up to its Sync is unanswered. */
    boolean owesReadyForQuery() {
        return cyclesOwed > 0;
    }

    boolean isIdle() {
        return inFlight.isEmpty() && running.isEmpty();
    }

    void firstResponse() {
        if (inFlight.peekFirst() instanceof PendingQuery query && query != UNGATED_QUERY && !query.answered) {
            query.answered = true;
            query.statement.signal(ReleaseSignal.FIRST_RESPONSE);
        }
    }

    void bindComplete() {
        if (inFlight.peekFirst() instanceof PendingBind bind) {
            inFlight.removeFirst();
            if (bind.statement.plannedWhileRunning()) {
                running.addLast(bind.statement);
            } else {
                bind.statement.signal(ReleaseSignal.BIND_COMPLETE);
            }
        }
    }

    /** CommandComplete, EmptyQueryResponse or PortalSuspended: the oldest running Bind's Execute is done. */
    void executeComplete() {
        if (!running.isEmpty()) {
            running.removeFirst().signal(ReleaseSignal.EXECUTE_COMPLETE);
        }
    }

    void error() {
        releaseRunning(ReleaseSignal.ERROR);
        while (!inFlight.isEmpty() && inFlight.peekFirst() != CYCLE_END) {
            signal(inFlight.removeFirst(), ReleaseSignal.ERROR);
        }
    }

    void readyForQuery() {
        releaseRunning(ReleaseSignal.READY_FOR_QUERY);
        while (!inFlight.isEmpty()) {
            Object entry = inFlight.removeFirst();
            if (entry == CYCLE_END) {
                cyclesOwed--;
                return;
            }
            signal(entry, ReleaseSignal.READY_FOR_QUERY);
        }
    }

    /** The session is over: every statement still in flight is released. */
    void disconnect() {
        releaseRunning(ReleaseSignal.DISCONNECT);
        while (!inFlight.isEmpty()) {
            signal(inFlight.removeFirst(), ReleaseSignal.DISCONNECT);
        }
        cyclesOwed = 0;
    }

    private void releaseRunning(ReleaseSignal signal) {
        while (!running.isEmpty()) {
            running.removeFirst().signal(signal);
        }
    }

    private static void signal(Object entry, ReleaseSignal signal) {
        switch (entry) {
            case PendingQuery query -> query.statement.signal(signal);
            case PendingBind bind -> bind.statement.signal(signal);
            default -> { } // a cycle end carries no statement
        }
    }

    private static final class PendingQuery {
        final AdmittedStatement statement;
        boolean answered;

        PendingQuery(AdmittedStatement statement) {
            this.statement = statement;
        }
    }

    private record PendingBind(AdmittedStatement statement) {}
}

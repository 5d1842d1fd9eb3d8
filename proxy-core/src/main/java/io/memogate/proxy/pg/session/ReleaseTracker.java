package io.memogate.proxy.pg.session;

import io.memogate.proxy.admission.AdmissionPoint;
import io.memogate.proxy.admission.AdmittedStatement;
import io.memogate.proxy.admission.ReleaseSignal;
import io.memogate.proxy.pg.session.InFlight.Marker;
import io.memogate.proxy.pg.session.InFlight.PendingBind;
import io.memogate.proxy.pg.session.InFlight.PendingExecute;
import io.memogate.proxy.pg.session.InFlight.PendingQuery;
import java.util.ArrayDeque;
import java.util.Iterator;

/**
 * Matches the server's responses to the admitted statements they belong to, so each admission hears
 * its release signals (DESIGN.md, "Admission points and release points").
 *
 * <p>The server answers in the order it was sent, so the tracker keeps a FIFO of what is in flight
 * ({@link InFlight}): admitted statements, the client's Executes (by portal), its Parses, Describes and Closes,
 * and a marker for each message that the server ends with ReadyForQuery (Sync, a simple Query, FunctionCall).
 * Then:
 * <ul>
 *   <li>RowDescription / CommandComplete / EmptyQueryResponse / Copy*Response: FIRST_RESPONSE to the
 *       oldest simple query (once); RUNNING to a simple query when it becomes the oldest in flight;
 *   <li>BindComplete: PLANNED to the oldest Bind, unless its statement is
 *       {@linkplain AdmittedStatement#plannedWhileRunning() planned while it runs}: that one hears RUNNING
 *       and is kept until the Execute of its portal completes (CommandComplete, EmptyQueryResponse or
 *       PortalSuspended of the oldest Execute: EXECUTED) or its cycle ends;
 *   <li>ParseComplete, CloseComplete, and the RowDescription or NoData that ends a Describe: the oldest
 *       Parse, Describe or Close is answered;
 *   <li>ErrorResponse: ERROR to everything before the next marker, kept Binds included — after an
 *       error the server skips to Sync, so those Binds will never complete. When what failed was an
 *       extended-protocol message, the server skips every message up to the next Sync (postgres.c,
 *       {@code ignore_till_sync}), a Query or FunctionCall among them too, and never answers those: their
 *       markers go, and until the client's next Sync so do the messages it sends;
 *   <li>ReadyForQuery: REQUEST_DONE to the kept Binds and everything up to and including the oldest
 *       marker;
 *   <li>CopyInResponse: the Syncs the client sent during the COPY data are taken back (the server ignores
 *       them in copy mode); the client's CopyDone or CopyFail marks where that data ends. But a row that fails
 *       ends the copy before the data does, and the server answers each Sync it reads after that with a
 *       ReadyForQuery of its own. Which of them it had read before cannot be seen (a bad value fails at its
 *       row, a constraint at a batch's flush, maybe after the next Sync), so after a failed copy each of them
 *       may or may not be answered: a ReadyForQuery comes for them only when no awaited one is due (every
 *       answer to a later message comes before its ReadyForQuery), and the first other answer shows that the
 *       rest were ignored.
 * </ul>
 * Not thread-safe: used on the session's event loop only.
 */
final class ReleaseTracker {

    private final ArrayDeque<InFlight> inFlight = new ArrayDeque<>();
    /**
     * The oldest entry, a simple query, was told FIRST_RESPONSE, or RUNNING: a query hears them only as the
     * oldest, once each, and the flags start afresh with each entry that becomes the oldest ({@link #pollOldest}).
     */
    private boolean oldestAnswered;
    private boolean oldestAnnounced;
    /** Binds planned while they run whose BindComplete came: kept until their Execute completes. */
    private final ArrayDeque<PendingBind> running = new ArrayDeque<>();
    /** Binds planned while they run, in {@link #inFlight} or {@link #running}: few, walked when they exist. */
    private int kept;
    /** The cycle ends in {@link #inFlight}: ReadyForQuery messages the server still owes. */
    private int cyclesOwed;
    /** The server reads COPY data from the client: it ignores the Syncs it reads until CopyDone or CopyFail. */
    private boolean copyingIn;
    /** Syncs sent among COPY data, which the server may or may not answer. */
    private final CopySyncs copySyncs = new CopySyncs();
    /** What the server still sends can no longer be matched for certain: see {@link #error}. */
    private boolean countLost;
    /**
     * An extended-protocol message failed and the client has not sent the Sync the server skips to: what the
     * client sends until then is read and dropped by the server, unanswered.
     */
    private boolean skippingToSync;

    /** A statement forwarded to the server after admission; {@code portal} is a Bind's (null: unnamed). */
    void admitted(AdmissionPoint point, AdmittedStatement statement, String portal) {
        copyingIn = false; // see queryEnd
        if (skippingToSync) {
            statement.signal(ReleaseSignal.ERROR); // the server drops it unread: it will not run
            return;
        }
        boolean ungated = statement == AdmittedStatement.UNGATED;
        if (point == AdmissionPoint.PREPARED_EXECUTION) {
            if (ungated) {
                inFlight.addLast(PendingBind.UNGATED);
            } else {
                PendingBind bind = new PendingBind(statement, portal == null ? "" : portal);
                kept += bind.kept ? 1 : 0;
                inFlight.addLast(bind);
            }
        } else {
            inFlight.addLast(ungated ? PendingQuery.UNGATED : new PendingQuery(statement));
            announceOldestQuery();
        }
    }

    /** The client's Execute of {@code portal} was forwarded: its completion ends that portal's run. */
    void executeSent(String portal) {
        copyingIn = false; // see queryEnd
        if (skippingToSync) {
            return;
        }
        inFlight.addLast(portal.isEmpty() ? PendingExecute.UNNAMED : new PendingExecute(portal));
        if (kept > 0) {
            PendingBind bind = keptBind(portal, false);
            if (bind != null) {
                bind.executeSent = true;
            }
        }
    }

    /** A Sync: the server answers it with ReadyForQuery, unless it is sent during COPY data, which it ignores. */
    void cycleEnd() {
        skippingToSync = false;
        if (copyingIn) {
            copySyncs.syncAmongData();
            return;
        }
        inFlight.addLast(Marker.CYCLE_END);
        cyclesOwed++;
    }

    /** A simple Query or a FunctionCall, answered with ReadyForQuery: the end of its own cycle. */
    void queryEnd() {
        // A message the server does not read among COPY data ends the client's data, as CopyDone would: the
        // server refuses it with FATAL if it still copies, and reads it as usual if a row failed first. Only a
        // statement held for admission when the copy began gets here so (the framer refuses the others).
        copyingIn = false;
        if (skippingToSync) {
            return;
        }
        inFlight.addLast(Marker.QUERY_END);
        cyclesOwed++;
    }

    /** A Parse, Describe or Close was forwarded. */
    void statementMessageSent() {
        copyingIn = false; // see queryEnd
        if (!skippingToSync) {
            inFlight.addLast(Marker.STATEMENT_MESSAGE);
        }
    }

    /**
     * ParseComplete, CloseComplete, NoData, or a RowDescription: the oldest Parse, Close or Describe, when that
     * is what the server answers (a RowDescription is a simple query's too).
     */
    void statementMessageAnswered() {
        copySyncs.answerCame();
        if (inFlight.peekFirst() == Marker.STATEMENT_MESSAGE) {
            removeOldest();
            announceOldestQuery();
        }
    }

    /**
     * CopyInResponse: the oldest statement in flight (an Execute, or a simple query) has the server read COPY
     * data. The Syncs the client sent after it, before its CopyDone or CopyFail, are read in copy mode and
     * ignored (libpq sends Bind, Execute, Sync, the data, CopyDone, Sync, and gets one ReadyForQuery): they
     * are taken back, or the tracker would stay a cycle behind for the rest of the session; should the copy fail,
     * they may be answered after all ({@link CopySyncs}). Any other message ends the data too: one the server
     * does not read in copy mode, which it answers with FATAL if it reads it there, and as usual if a row failed
     * first (what follows it is the client's next statements, awaited as such).
     */
    void copyInStarted() {
        copySyncs.copyBegun();
        Iterator<InFlight> it = inFlight.iterator();
        if (!it.hasNext()) {
            return;
        }
        InFlight copy = it.next();
        if (copy instanceof PendingQuery && it.hasNext()) {
            it.next(); // the query's own cycle end
        }
        while (it.hasNext()) {
            InFlight entry = it.next();
            if (entry != Marker.CYCLE_END) {
                if (entry == Marker.COPY_END) {
                    it.remove();
                }
                return; // the data's end was sent already
            }
            it.remove();
            cyclesOwed--;
            copySyncs.syncAmongData();
        }
        copyingIn = true;
    }

    /** CopyDone or CopyFail from the client: the server leaves copy mode at it. */
    void copyEnded() {
        if (skippingToSync) {
            return;
        } else if (copyingIn) {
            copyingIn = false;
        } else if (!inFlight.isEmpty()) {
            inFlight.addLast(Marker.COPY_END); // a copy's start may still be on its way back
        }
    }

    /** Whether the server still owes a ReadyForQuery: a whole Query or batch up to its Sync is unanswered. */
    boolean owesReadyForQuery() {
        return cyclesOwed > 0;
    }

    /**
     * Whether the server may still send answers that nothing here awaits, so that {@link #owesReadyForQuery}
     * cannot say when it is done: ReadyForQuery messages for Syncs sent among the data of a copy that failed,
     * until another answer shows they were ignored; or, for the rest of the session, answers to messages taken
     * as skipped after an extended-protocol copy failed ({@link #error}).
     */
    boolean mayAnswerUnawaited() {
        return copySyncs.strayPending() || countLost;
    }

    /**
     * Whether the server reads COPY data from the client and the client has not sent its end: the server
     * then answers nothing more until the client does.
     */
    boolean copyingIn() {
        return copyingIn;
    }

    /**
     * Nothing in flight but Parses, Describes and Closes: the server does no work for this client (it answers
     * those at once, though it holds the answers until a Sync or Flush), so a cancel would find nothing to stop.
     */
    boolean isIdle() {
        if (!running.isEmpty()) {
            return false;
        }
        if (inFlight.isEmpty()) {
            return true; // as at each ReadyForQuery of a client that waits for it: no iterator made
        }
        for (InFlight entry : inFlight) {
            if (entry != Marker.STATEMENT_MESSAGE) {
                return false;
            }
        }
        return true;
    }

    /** At most this many messages in flight are counted before a Bind that may be degraded. */
    static final int COUNTABLE_IN_FLIGHT = 64;

    /**
     * What the server still has to answer, oldest first, for {@link DegradedRuns} to count where its answers end;
     * null when they cannot be counted: a COPY under way, a Bind kept running, the server skipping to a Sync,
     * answers it may send unawaited, or more than {@value #COUNTABLE_IN_FLIGHT} of them.
     */
    Iterable<InFlight> countableInFlight() {
        // A deep pipeline (a driver's batch) is not walked at each of its Binds.
        boolean countable = running.isEmpty() && !skippingToSync && !countLost && !copyingIn
                && !copySyncs.strayPending() && inFlight.size() <= COUNTABLE_IN_FLIGHT
                && !inFlight.contains(Marker.COPY_END);
        return countable ? inFlight : null;
    }

    void firstResponse() {
        copySyncs.answerCame();
        if (inFlight.peekFirst() instanceof PendingQuery query && !oldestAnswered) {
            oldestAnswered = true;
            query.statement().signal(ReleaseSignal.FIRST_RESPONSE);
        }
    }

    void bindComplete() {
        copySyncs.answerCame();
        if (inFlight.peekFirst() instanceof PendingBind bind) {
            removeOldest();
            if (bind.released) {
                return; // given back before (releaseUnexecuted)
            }
            if (!bind.kept) {
                bind.statement.signal(ReleaseSignal.PLANNED);
            } else {
                running.addLast(bind);
                bind.statement.signal(ReleaseSignal.RUNNING);
            }
            announceOldestQuery();
        }
    }

    /** CommandComplete, EmptyQueryResponse or PortalSuspended: the oldest Execute in flight is done. */
    void executeComplete() {
        copySyncs.answerCame();
        if (inFlight.peekFirst() instanceof PendingExecute execute) {
            removeOldest();
            if (!running.isEmpty()) {
                PendingBind bind = keptBind(execute.portal(), true);
                if (bind != null) {
                    running.remove(bind);
                    release(bind, ReleaseSignal.EXECUTED);
                }
            }
            announceOldestQuery();
        }
    }

    /**
     * A statement of this session is about to wait for admission: the kept Binds whose Execute the client has
     * not sent yet give their permits back, since their Execute, behind the waiting statement, cannot run before
     * it is admitted; holding on, they could be what it waits for.
     */
    void releaseUnexecuted() {
        if (kept == 0) {
            return;
        }
        for (Iterator<PendingBind> it = running.iterator(); it.hasNext(); ) {
            PendingBind bind = it.next();
            if (!bind.executeSent) {
                it.remove();
                release(bind, ReleaseSignal.PLANNED);
            }
        }
        for (InFlight entry : inFlight) {
            if (entry instanceof PendingBind bind && bind.kept && !bind.executeSent) {
                release(bind, ReleaseSignal.PLANNED); // its BindComplete, when it comes, then does nothing
            }
        }
    }

    void error() {
        copyingIn = false; // an error ends a COPY: the server reads Syncs again
        boolean copyFailed = copySyncs.copyFailed();
        releaseRunning(ReleaseSignal.ERROR);
        // What failed is the oldest message in flight: each one before it was answered and taken out.
        boolean skipsToSync = !inFlight.isEmpty() && isExtended(inFlight.peekFirst());
        int skipped = 0;
        while (!inFlight.isEmpty() && inFlight.peekFirst() != Marker.CYCLE_END
                && (skipsToSync || inFlight.peekFirst() != Marker.QUERY_END)) {
            InFlight entry = pollOldest();
            if (entry == Marker.QUERY_END) {
                cyclesOwed--; // a Query inside the failed batch: skipped, never answered
            }
            skipped += entry == Marker.COPY_END ? 0 : 1;
            signal(entry, ReleaseSignal.ERROR);
        }
        // An extended-protocol copy: the server skips to the first Sync it reads after the failure. Messages
        // between the Syncs among the data and the next Sync are taken as skipped, as they are when the server
        // read those Syncs in copy mode; when it did not, it answers them, and this tracker has lost count.
        countLost |= copyFailed && skipsToSync && copySyncs.strayPending() && skipped > 1;
        skippingToSync = skipsToSync && inFlight.isEmpty();
        announceOldestQuery();
    }

    /** Whether an error for this entry puts the server in skip-to-Sync mode (postgres.c, ignore_till_sync). */
    private static boolean isExtended(InFlight entry) {
        return switch (entry) {
            case Marker marker -> marker == Marker.STATEMENT_MESSAGE;
            case PendingBind bind -> true;
            case PendingExecute execute -> true;
            case PendingQuery query -> false;
        };
    }

    /** Whether ReadyForQuery answers this entry, ending its cycle: a Sync, or a simple Query or FunctionCall. */
    private static boolean endsCycle(InFlight entry) {
        return entry == Marker.CYCLE_END || entry == Marker.QUERY_END;
    }

    void readyForQuery() {
        if (copySyncs.strayPending() && !readyForQueryAwaited()) {
            copySyncs.strayAnswered(); // a Sync among a failed copy's data, read after the failure
            skippingToSync = false;
            return;
        }
        releaseRunning(ReleaseSignal.REQUEST_DONE);
        while (!inFlight.isEmpty()) {
            InFlight entry = pollOldest();
            if (endsCycle(entry)) {
                cyclesOwed--;
                break;
            }
            signal(entry, ReleaseSignal.REQUEST_DONE);
        }
        dropEndsOfCopiesNotBegun();
        announceOldestQuery();
    }

    /** The session is over: every statement still in flight is released. */
    void disconnect() {
        releaseRunning(ReleaseSignal.DISCONNECT);
        while (!inFlight.isEmpty()) {
            signal(pollOldest(), ReleaseSignal.DISCONNECT);
        }
        cyclesOwed = 0;
        copyingIn = false;
        skippingToSync = false;
        copySyncs.answerCame(); // forgets them all
        countLost = false;
    }

    /**
     * Whether a ReadyForQuery now would be the one that {@link #inFlight} awaits first: its oldest entry, but for
     * the ends of copies, is a cycle's end whose messages have all been answered. Any other entry is answered
     * before its cycle's ReadyForQuery, so a ReadyForQuery that comes first is not its.
     */
    private boolean readyForQueryAwaited() {
        for (InFlight entry : inFlight) {
            if (entry != Marker.COPY_END) {
                return endsCycle(entry);
            }
        }
        return false;
    }

    private void removeOldest() {
        pollOldest();
        dropEndsOfCopiesNotBegun();
    }

    /** Takes the oldest entry out: the next one has heard nothing as the oldest yet. */
    private InFlight pollOldest() {
        oldestAnswered = false;
        oldestAnnounced = false;
        return inFlight.removeFirst();
    }

    /**
     * The client's CopyDone or CopyFail that is now the oldest entry: no statement before it is left to start a
     * copy (one that did would have had its CopyInResponse take it out), so the server read it outside copy mode
     * and ignored it. Left in place it would stand before the next answers' entries: a CopyFail sent with no
     * COPY running would keep a Query of a failed batch awaited, and a FATAL would wait for it for ever.
     */
    private void dropEndsOfCopiesNotBegun() {
        while (inFlight.peekFirst() == Marker.COPY_END) {
            pollOldest();
        }
    }

    /** A simple query that is now the oldest in flight is what the server works on: RUNNING, once. */
    private void announceOldestQuery() {
        if (inFlight.peekFirst() instanceof PendingQuery query && !oldestAnnounced) {
            oldestAnnounced = true;
            query.statement().signal(ReleaseSignal.RUNNING);
        }
    }

    /**
     * The oldest kept Bind of {@code portal}: among those bound ({@link #running}) when {@code bound}, else
     * among all whose Execute has not been sent.
     */
    private PendingBind keptBind(String portal, boolean bound) {
        for (PendingBind bind : running) {
            if (bind.portal.equals(portal) && (bound || !bind.executeSent)) {
                return bind;
            }
        }
        if (!bound) {
            for (InFlight entry : inFlight) {
                if (entry instanceof PendingBind bind && bind.kept && !bind.executeSent && bind.portal.equals(portal)) {
                    return bind;
                }
            }
        }
        return null;
    }

    private void releaseRunning(ReleaseSignal signal) {
        while (!running.isEmpty()) {
            release(running.removeFirst(), signal);
        }
    }

    private void signal(InFlight entry, ReleaseSignal signal) {
        switch (entry) {
            case PendingQuery query -> query.statement().signal(signal);
            case PendingBind bind -> release(bind, signal);
            case PendingExecute execute -> { } // carries no statement: its Bind hears it
            case Marker marker -> { }
        }
    }

    /** Gives a Bind's permits back, once: a kept one stops counting as kept. */
    private void release(PendingBind bind, ReleaseSignal signal) {
        if (bind.released) {
            return;
        }
        if (bind.kept) {
            bind.released = true;
            kept--;
        }
        bind.statement.signal(signal);
    }
}

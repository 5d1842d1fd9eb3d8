package io.memogate.proxy.pg.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.proxy.admission.AdmissionPoint;
import io.memogate.proxy.admission.AdmittedStatement;
import io.memogate.proxy.admission.ReleaseSignal;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReleaseTrackerTest {

    private final ReleaseTracker tracker = new ReleaseTracker();

    @Test
    void simpleQueryHearsItsFirstResponseOnceThenReadyForQuery() {
        Recorder query = new Recorder();
        tracker.admitted(AdmissionPoint.STATEMENT_TEXT, query, null);
        tracker.queryEnd();

        tracker.firstResponse(); // RowDescription
        tracker.firstResponse(); // CommandComplete of the same query
        tracker.readyForQuery();

        assertThat(query.signals).containsExactly(ReleaseSignal.RUNNING, ReleaseSignal.FIRST_RESPONSE,
                ReleaseSignal.REQUEST_DONE);
        assertThat(tracker.isIdle()).isTrue();
    }

    @Test
    void pipelinedBindsCompleteInOrder() {
        Recorder first = new Recorder();
        Recorder second = new Recorder();
        tracker.admitted(AdmissionPoint.PREPARED_EXECUTION, first, null);
        tracker.admitted(AdmissionPoint.PREPARED_EXECUTION, second, null);
        tracker.cycleEnd();

        tracker.bindComplete();
        assertThat(first.signals).containsExactly(ReleaseSignal.PLANNED);
        assertThat(second.signals).isEmpty();

        tracker.bindComplete();
        tracker.readyForQuery();
        assertThat(second.signals).containsExactly(ReleaseSignal.PLANNED);
        assertThat(tracker.isIdle()).isTrue();
    }

    @Test
    void anErrorReleasesEveryBindTheServerWillSkipButNotTheNextBatch() {
        Recorder skipped = new Recorder();
        Recorder nextBatch = new Recorder();
        tracker.admitted(AdmissionPoint.PREPARED_EXECUTION, skipped, null); // Parse failed before it: never bound
        tracker.cycleEnd();
        tracker.admitted(AdmissionPoint.PREPARED_EXECUTION, nextBatch, null);
        tracker.cycleEnd();

        tracker.error();
        assertThat(skipped.signals).containsExactly(ReleaseSignal.ERROR);
        assertThat(nextBatch.signals).isEmpty();

        tracker.readyForQuery(); // ends the failed batch
        tracker.bindComplete();  // belongs to the next batch
        assertThat(nextBatch.signals).containsExactly(ReleaseSignal.PLANNED);
    }

    @Test
    void disconnectReleasesEverythingInFlight() {
        Recorder query = new Recorder();
        Recorder bind = new Recorder();
        tracker.admitted(AdmissionPoint.STATEMENT_TEXT, query, null);
        tracker.queryEnd();
        tracker.admitted(AdmissionPoint.PREPARED_EXECUTION, bind, null);

        tracker.disconnect();

        assertThat(query.signals).containsExactly(ReleaseSignal.RUNNING, ReleaseSignal.DISCONNECT);
        assertThat(bind.signals).containsExactly(ReleaseSignal.DISCONNECT);
        assertThat(tracker.isIdle()).isTrue();
    }

    @Test
    void ungatedStatementsShareEntriesAndStillKeepTheOrder() {
        Recorder gated = new Recorder();
        tracker.admitted(AdmissionPoint.PREPARED_EXECUTION, AdmittedStatement.UNGATED, null);
        tracker.admitted(AdmissionPoint.PREPARED_EXECUTION, gated, null);
        tracker.cycleEnd();

        tracker.bindComplete();
        assertThat(gated.signals).isEmpty();
        tracker.bindComplete();
        assertThat(gated.signals).containsExactly(ReleaseSignal.PLANNED);
    }

    @Test
    void aBindPlannedWhileRunningIsHeldPastBindCompleteUntilItsCycleEnds() {
        Recorder doBlock = new Recorder(true);
        Recorder next = new Recorder();
        tracker.admitted(AdmissionPoint.PREPARED_EXECUTION, doBlock, null);
        tracker.admitted(AdmissionPoint.PREPARED_EXECUTION, next, null);
        tracker.cycleEnd();

        tracker.bindComplete(); // the DO block's: it runs now, and plans its queries
        assertThat(doBlock.signals).containsExactly(ReleaseSignal.RUNNING);
        assertThat(tracker.isIdle()).isFalse();
        tracker.bindComplete(); // the next Bind's (its Execute not seen by this tracker)
        assertThat(next.signals).containsExactly(ReleaseSignal.PLANNED);
        assertThat(doBlock.signals).containsExactly(ReleaseSignal.RUNNING);

        tracker.readyForQuery();
        assertThat(doBlock.signals).containsExactly(ReleaseSignal.RUNNING, ReleaseSignal.REQUEST_DONE);
        assertThat(tracker.isIdle()).isTrue();
    }

    @Test
    void aKeptBindIsReleasedWhenTheExecuteOfItsPortalCompletes() {
        Recorder call = new Recorder(true);
        Recorder plain = new Recorder();
        tracker.admitted(AdmissionPoint.PREPARED_EXECUTION, plain, null);
        tracker.executeSent("");
        tracker.admitted(AdmissionPoint.PREPARED_EXECUTION, call, null);
        tracker.executeSent("");

        tracker.bindComplete();
        tracker.executeComplete(); // the plain one's Execute: nothing kept runs yet
        tracker.bindComplete();
        assertThat(call.signals).containsExactly(ReleaseSignal.RUNNING);
        tracker.executeComplete(); // CommandComplete of the call, before any Sync
        assertThat(call.signals).containsExactly(ReleaseSignal.RUNNING, ReleaseSignal.EXECUTED);
        assertThat(plain.signals).containsExactly(ReleaseSignal.PLANNED);
        assertThat(tracker.isIdle()).isTrue();
    }

    /** Bind A, Bind B (a call), Execute A, Execute B: A's CommandComplete is not the end of B. */
    @Test
    void anotherPortalsCompletionDoesNotEndAKeptBind() {
        Recorder plain = new Recorder();
        Recorder call = new Recorder(true);
        tracker.admitted(AdmissionPoint.PREPARED_EXECUTION, plain, "a");
        tracker.admitted(AdmissionPoint.PREPARED_EXECUTION, call, "b");
        tracker.executeSent("a");
        tracker.executeSent("b");
        tracker.cycleEnd();

        tracker.bindComplete();
        tracker.bindComplete();
        tracker.executeComplete(); // Execute a
        assertThat(call.signals).containsExactly(ReleaseSignal.RUNNING);
        tracker.executeComplete(); // Execute b
        assertThat(call.signals).containsExactly(ReleaseSignal.RUNNING, ReleaseSignal.EXECUTED);
    }

    /** Bind P1 (a call), Bind P2 waits; Execute P1 is behind P2: P1's permits go back rather than block P2. */
    @Test
    void aKeptBindWhoseExecuteIsNotSentIsReleasedWhenAStatementMustWait() {
        Recorder call = new Recorder(true);
        tracker.admitted(AdmissionPoint.PREPARED_EXECUTION, call, "p1");
        tracker.releaseUnexecuted();
        assertThat(call.signals).containsExactly(ReleaseSignal.PLANNED);
        tracker.bindComplete(); // arrives later: nothing more
        assertThat(call.signals).containsExactly(ReleaseSignal.PLANNED);

        Recorder executed = new Recorder(true);
        tracker.admitted(AdmissionPoint.PREPARED_EXECUTION, executed, "p3");
        tracker.executeSent("p3");
        tracker.releaseUnexecuted();
        assertThat(executed.signals).as("its Execute is on its way: kept").isEmpty();
    }

    @Test
    void aSimpleQueryHearsRunningWhenItBecomesTheOldestInFlight() {
        Recorder first = new Recorder();
        Recorder second = new Recorder(true);
        tracker.admitted(AdmissionPoint.STATEMENT_TEXT, first, null);
        tracker.queryEnd();
        tracker.admitted(AdmissionPoint.STATEMENT_TEXT, second, null);
        tracker.queryEnd();
        assertThat(first.signals).containsExactly(ReleaseSignal.RUNNING);
        assertThat(second.signals).as("behind the first").isEmpty();

        tracker.readyForQuery();
        assertThat(second.signals).containsExactly(ReleaseSignal.RUNNING);
    }

    /** What the oldest query has heard is not carried to the next: an ungated one ahead, then two pipelined. */
    @Test
    void pipelinedQueriesEachHearTheirOwnFirstResponseOnce() {
        Recorder first = new Recorder();
        Recorder second = new Recorder();
        tracker.admitted(AdmissionPoint.STATEMENT_TEXT, AdmittedStatement.UNGATED, null);
        tracker.queryEnd();
        tracker.admitted(AdmissionPoint.STATEMENT_TEXT, first, null);
        tracker.queryEnd();
        tracker.admitted(AdmissionPoint.STATEMENT_TEXT, second, null);
        tracker.queryEnd();

        tracker.firstResponse(); // the ungated query's
        tracker.readyForQuery();
        assertThat(first.signals).containsExactly(ReleaseSignal.RUNNING);
        tracker.firstResponse();
        tracker.firstResponse();
        tracker.readyForQuery();
        tracker.firstResponse();

        assertThat(first.signals).containsExactly(ReleaseSignal.RUNNING, ReleaseSignal.FIRST_RESPONSE,
                ReleaseSignal.REQUEST_DONE);
        assertThat(second.signals).containsExactly(ReleaseSignal.RUNNING, ReleaseSignal.FIRST_RESPONSE);
    }

    /** Bind, Execute, Flush (no Sync), then a DO block as a simple query: it hears RUNNING when its turn comes. */
    @Test
    void aSimpleQueryBehindAnUnsyncedExecuteHearsRunningAtItsTurn() {
        Recorder plain = new Recorder();
        Recorder doBlock = new Recorder(true);
        tracker.admitted(AdmissionPoint.PREPARED_EXECUTION, plain, null);
        tracker.executeSent("");
        tracker.admitted(AdmissionPoint.STATEMENT_TEXT, doBlock, null);
        tracker.queryEnd();
        assertThat(doBlock.signals).isEmpty();

        tracker.bindComplete();
        tracker.executeComplete(); // the Execute's CommandComplete: the server is on the DO block now
        assertThat(doBlock.signals).containsExactly(ReleaseSignal.RUNNING);
    }

    /** libpq's extended COPY FROM STDIN: Bind, Execute, Sync, data, CopyDone, Sync; the server answers one Z. */
    @Test
    void aSyncSentDuringCopyDataIsNotAwaited() {
        for (boolean copyInResponseFirst : new boolean[] {true, false}) {
            ReleaseTracker copying = new ReleaseTracker();
            copying.admitted(AdmissionPoint.PREPARED_EXECUTION, AdmittedStatement.UNGATED, null);
            copying.executeSent("");
            copying.cycleEnd();
            copying.bindComplete();
            if (copyInResponseFirst) {
                copying.copyInStarted(); // CopyInResponse before the client's data ends
                copying.copyEnded();
                copying.cycleEnd();
            } else {
                copying.copyEnded();
                copying.cycleEnd();
                copying.copyInStarted();
            }
            copying.executeComplete();
            copying.readyForQuery();
            assertThat(copying.owesReadyForQuery()).as("CopyInResponse first: " + copyInResponseFirst).isFalse();
            assertThat(copying.isIdle()).isTrue();
        }
    }

    /**
     * A simple-protocol COPY whose client sent a Sync among its data, then a Query, all before the server
     * answered. A row that fails before the Sync ends the copy, and the server answers the Sync it then reads
     * with a ReadyForQuery of its own (answered); a failure found later, after it read the Sync in copy mode,
     * leaves the Sync unanswered. Either way the Query hears its own signals at its own answers.
     */
    @Test
    void aSyncAmongTheDataOfAFailedCopyIsCountedWhetherTheServerAnswersItOrNot() {
        for (boolean answered : new boolean[] {true, false}) {
            ReleaseTracker copying = new ReleaseTracker();
            Recorder copy = new Recorder();
            Recorder insert = new Recorder();
            copying.admitted(AdmissionPoint.STATEMENT_TEXT, copy, null);
            copying.queryEnd();
            copying.cycleEnd(); // the Sync among the data, sent before the CopyInResponse came back
            copying.copyEnded();
            copying.admitted(AdmissionPoint.STATEMENT_TEXT, insert, null);
            copying.queryEnd();

            copying.firstResponse(); // CopyInResponse
            copying.copyInStarted();
            copying.error(); // the row failed
            copying.readyForQuery(); // the COPY's own
            assertThat(copy.signals).containsExactly(ReleaseSignal.RUNNING, ReleaseSignal.FIRST_RESPONSE,
                    ReleaseSignal.ERROR);
            if (answered) {
                copying.readyForQuery(); // the Sync's
            }
            assertThat(copying.owesReadyForQuery()).as("answered: " + answered).isTrue();
            assertThat(insert.signals).as("answered: " + answered).containsExactly(ReleaseSignal.RUNNING);

            copying.firstResponse(); // the INSERT's CommandComplete
            assertThat(copying.owesReadyForQuery()).isTrue();
            copying.readyForQuery();
            assertThat(insert.signals).containsExactly(ReleaseSignal.RUNNING, ReleaseSignal.FIRST_RESPONSE,
                    ReleaseSignal.REQUEST_DONE);
            assertThat(copying.owesReadyForQuery()).as("answered: " + answered).isFalse();
            assertThat(copying.mayAnswerUnawaited()).as("answered: " + answered).isFalse();
        }
    }

    /**
     * libpq's extended COPY with a Sync among the data, the copy failing: the server skips to the first Sync it
     * reads after the failure, the one among the data or the one after CopyDone, and answers each after that.
     * The batch's own ReadyForQuery is awaited; the other may come or not, and until another answer shows which,
     * the server may not be done (no recycling then).
     */
    @Test
    void anExtendedCopyThatFailsAwaitsItsBatchsReadyForQueryAndMayGetOneMore() {
        for (boolean answered : new boolean[] {true, false}) {
            ReleaseTracker copying = new ReleaseTracker();
            Recorder bind = new Recorder();
            copying.admitted(AdmissionPoint.PREPARED_EXECUTION, bind, null);
            copying.executeSent("");
            copying.cycleEnd(); // libpq's, before the data
            copying.bindComplete();
            copying.copyInStarted();
            copying.cycleEnd(); // among the data
            copying.copyEnded();
            copying.cycleEnd(); // after CopyDone: the batch's end

            copying.error();
            assertThat(copying.owesReadyForQuery()).isTrue();
            copying.readyForQuery();
            assertThat(copying.owesReadyForQuery()).isFalse();
            assertThat(copying.mayAnswerUnawaited()).as("answered: " + answered).isTrue();
            if (answered) {
                copying.readyForQuery();
            }
            Recorder next = new Recorder();
            copying.admitted(AdmissionPoint.STATEMENT_TEXT, next, null);
            copying.queryEnd();
            copying.firstResponse();
            assertThat(copying.mayAnswerUnawaited()).as("the stray Syncs were ignored or answered by now").isFalse();
            copying.readyForQuery();
            assertThat(next.signals).containsExactly(ReleaseSignal.RUNNING, ReleaseSignal.FIRST_RESPONSE,
                    ReleaseSignal.REQUEST_DONE);
            assertThat(copying.owesReadyForQuery()).isFalse();
            assertThat(copying.isIdle()).isTrue();
        }
    }

    /**
     * A client that left its COPY data for a Query without a CopyDone (fuzz seed 555, a swapped CopyDone), all
     * sent before the CopyInResponse came back. A row had failed first, so the server read the Query as usual
     * and answered it, and the batch after it: those are awaited. The Syncs after the Query were taken back as
     * sent during the data, and a FATAL for a later bad message went before the batch's answers, whose INSERTs
     * the server had committed.
     */
    @Test
    void aQueryAmongCopyDataEndsTheDataForTheTracker() {
        Recorder copy = new Recorder();
        Recorder query = new Recorder();
        tracker.admitted(AdmissionPoint.STATEMENT_TEXT, copy, null);
        tracker.queryEnd();
        tracker.admitted(AdmissionPoint.STATEMENT_TEXT, query, null);
        tracker.queryEnd();
        tracker.statementMessageSent(); // a Parse
        tracker.cycleEnd();

        tracker.firstResponse(); // CopyInResponse
        tracker.copyInStarted();
        assertThat(tracker.copyingIn()).as("the client's data is over").isFalse();
        tracker.error(); // a row failed
        tracker.readyForQuery();
        tracker.firstResponse(); // the Query's CommandComplete
        tracker.readyForQuery();
        assertThat(query.signals).endsWith(ReleaseSignal.REQUEST_DONE);
        assertThat(tracker.owesReadyForQuery()).as("the batch's ReadyForQuery").isTrue();
        tracker.statementMessageAnswered();
        tracker.readyForQuery();
        assertCaughtUp();
    }

    /**
     * An extended-protocol COPY with a Sync among its data, then a Query without a CopyDone (fuzz seed 555). The
     * copy fails: the server skips to the first Sync it reads after the failure, the one among the data if it
     * read that one after, else the batch's own. Which, no answer tells; the Query is taken as skipped, and the
     * tracker says it can no longer tell when the server is done, for the rest of the session.
     */
    @Test
    void anExtendedCopyThatFailsWithMessagesBetweenItsSyncsLosesCount() {
        tracker.admitted(AdmissionPoint.PREPARED_EXECUTION, new Recorder(), null);
        tracker.executeSent("");
        tracker.bindComplete();
        tracker.copyInStarted();
        tracker.cycleEnd(); // among the data
        tracker.copyEnded(); // not sent: the client's Query ends the data here
        Recorder query = new Recorder();
        tracker.admitted(AdmissionPoint.STATEMENT_TEXT, query, null);
        tracker.queryEnd();
        tracker.cycleEnd();

        tracker.error();
        assertThat(query.signals).as("taken as skipped").endsWith(ReleaseSignal.ERROR);
        tracker.readyForQuery();
        tracker.firstResponse();
        tracker.readyForQuery();
        assertThat(tracker.mayAnswerUnawaited()).isTrue();
    }

    /**
     * A CopyFail sent with no COPY running (fuzz seed 35748), which the server ignores, then a batch whose Parse
     * fails with a Query inside it. The CopyFail's entry stayed in front of the next answers: ParseComplete and
     * BindComplete matched nothing, the error was taken as a simple query's, the skipped Query was awaited, and a
     * FATAL for a later bad message waited for its ReadyForQuery for ever.
     */
    @Test
    void aCopyFailSentWithNoCopyRunningHoldsUpNoAnswer() {
        Recorder bind = new Recorder();
        Recorder skipped = new Recorder();
        tracker.statementMessageSent(); // Parse
        tracker.copyEnded(); // CopyFail
        tracker.statementMessageSent(); // Parse
        tracker.admitted(AdmissionPoint.PREPARED_EXECUTION, bind, null);
        tracker.executeSent("");
        tracker.statementMessageSent(); // a Parse that fails
        tracker.admitted(AdmissionPoint.STATEMENT_TEXT, skipped, null);
        tracker.queryEnd();
        tracker.cycleEnd();

        tracker.statementMessageAnswered();
        tracker.statementMessageAnswered();
        tracker.bindComplete();
        assertThat(bind.signals).containsExactly(ReleaseSignal.PLANNED);
        tracker.firstResponse();
        tracker.executeComplete();
        tracker.error();
        assertThat(skipped.signals).as("skipped with the batch").endsWith(ReleaseSignal.ERROR);
        tracker.readyForQuery();
        assertCaughtUp();
    }

    /**
     * A Query that was held for admission while the copy before it began (fuzz seed 54371, through the holding
     * proxy) goes on after the CopyInResponse: it ends the client's data, and its ReadyForQuery is awaited.
     */
    @Test
    void aHeldQueryThatGoesOnDuringCopyDataEndsTheData() {
        tracker.admitted(AdmissionPoint.STATEMENT_TEXT, new Recorder(), null);
        tracker.queryEnd();
        tracker.firstResponse();
        tracker.copyInStarted();
        assertThat(tracker.copyingIn()).isTrue();

        tracker.admitted(AdmissionPoint.STATEMENT_TEXT, new Recorder(), null);
        tracker.queryEnd();
        assertThat(tracker.copyingIn()).isFalse();
        tracker.error(); // the copy had failed at a row
        tracker.readyForQuery();
        assertThat(tracker.owesReadyForQuery()).as("the held Query's").isTrue();
        tracker.firstResponse();
        tracker.readyForQuery();
        assertCaughtUp();
    }

    /** A COPY that succeeds read all its data in copy mode, the Syncs among it too: none is answered. */
    @Test
    void theSyncsAmongASuccessfulCopysDataAreNotAnswered() {
        Recorder copy = new Recorder();
        tracker.admitted(AdmissionPoint.STATEMENT_TEXT, copy, null);
        tracker.queryEnd();
        tracker.firstResponse();
        tracker.copyInStarted();
        tracker.cycleEnd();
        tracker.copyEnded();
        Recorder next = new Recorder();
        tracker.admitted(AdmissionPoint.STATEMENT_TEXT, next, null);
        tracker.queryEnd();

        tracker.firstResponse(); // COPY 1
        assertThat(tracker.mayAnswerUnawaited()).isFalse();
        tracker.readyForQuery();
        assertThat(copy.signals).endsWith(ReleaseSignal.REQUEST_DONE);
        assertThat(next.signals).containsExactly(ReleaseSignal.RUNNING);
        tracker.firstResponse();
        tracker.readyForQuery();
        assertThat(next.signals).endsWith(ReleaseSignal.REQUEST_DONE);
        assertCaughtUp();
    }

    /** A simple-protocol COPY that fails before it starts: the client's CopyDone, read outside copy mode, is no cycle. */
    @Test
    void theEndOfACopyThatNeverBeganLeavesNothingBehind() {
        tracker.admitted(AdmissionPoint.STATEMENT_TEXT, AdmittedStatement.UNGATED, null);
        tracker.queryEnd();
        tracker.copyEnded();
        tracker.error();
        tracker.readyForQuery();
        assertThat(tracker.isIdle()).isTrue();
        assertThat(tracker.owesReadyForQuery()).isFalse();
    }

    @Test
    void aRunningBindIsReleasedByAnErrorOrADisconnect() {
        Recorder failed = new Recorder(true);
        tracker.admitted(AdmissionPoint.PREPARED_EXECUTION, failed, null);
        tracker.cycleEnd();
        tracker.bindComplete();
        tracker.error(); // the block raised
        assertThat(failed.signals).containsExactly(ReleaseSignal.RUNNING, ReleaseSignal.ERROR);

        tracker.readyForQuery();
        Recorder gone = new Recorder(true);
        tracker.admitted(AdmissionPoint.PREPARED_EXECUTION, gone, null);
        tracker.bindComplete(); // Execute and Flush, no Sync yet
        assertThat(tracker.isIdle()).isFalse();
        tracker.disconnect();
        assertThat(gone.signals).containsExactly(ReleaseSignal.RUNNING, ReleaseSignal.DISCONNECT);
        assertThat(tracker.isIdle()).isTrue();
    }

    /**
     * A Query sent inside an extended batch that then failed: the server skips everything up to the batch's
     * Sync, the Query too, and answers one ReadyForQuery, not two (postgres.c, ignore_till_sync).
     */
    @Test
    void aQueryInsideAFailedBatchIsSkippedAndNotAwaited() {
        Recorder query = new Recorder();
        tracker.executeSent("missing"); // fails: no such portal
        tracker.admitted(AdmissionPoint.STATEMENT_TEXT, query, null);
        tracker.queryEnd();
        tracker.cycleEnd();
        assertThat(tracker.owesReadyForQuery()).isTrue();

        tracker.error();
        assertThat(query.signals).containsExactly(ReleaseSignal.ERROR);
        tracker.readyForQuery(); // the Sync's
        assertCaughtUp(); // the Query's ReadyForQuery never comes
    }

    /** The same when what failed is a Parse, which the tracker follows to its ParseComplete or error. */
    @Test
    void aFailedParseMakesTheServerSkipTheQueryAfterIt() {
        tracker.statementMessageSent(); // Parse, fails
        tracker.admitted(AdmissionPoint.STATEMENT_TEXT, AdmittedStatement.UNGATED, null);
        tracker.queryEnd();
        tracker.cycleEnd();

        tracker.error();
        tracker.readyForQuery();
        assertCaughtUp();
    }

    /** A Query's own error skips nothing: the Query after it is answered, and awaited. */
    @Test
    void aSimpleQuerysErrorSkipsNothing() {
        Recorder failing = new Recorder();
        Recorder next = new Recorder();
        tracker.statementMessageSent(); // Parse, answered
        tracker.admitted(AdmissionPoint.STATEMENT_TEXT, failing, null);
        tracker.queryEnd();
        tracker.admitted(AdmissionPoint.STATEMENT_TEXT, next, null);
        tracker.queryEnd();

        tracker.statementMessageAnswered(); // ParseComplete
        assertThat(failing.signals).containsExactly(ReleaseSignal.RUNNING);
        tracker.error();
        tracker.readyForQuery();
        assertThat(next.signals).containsExactly(ReleaseSignal.RUNNING);
        assertThat(tracker.owesReadyForQuery()).isTrue();
        tracker.readyForQuery();
        assertThat(tracker.isIdle()).isTrue();
    }

    /** Sent after the error came back and before the Sync: the server drops it unread, so it is not awaited. */
    @Test
    void whatTheClientSendsWhileTheServerSkipsToSyncIsNotAwaited() {
        Recorder dropped = new Recorder();
        tracker.executeSent("missing");
        tracker.error();
        tracker.admitted(AdmissionPoint.STATEMENT_TEXT, dropped, null);
        tracker.queryEnd();
        tracker.statementMessageSent();
        assertThat(dropped.signals).containsExactly(ReleaseSignal.ERROR);
        assertCaughtUp();

        tracker.cycleEnd(); // the Sync: the server answers it, then reads again
        tracker.readyForQuery();
        tracker.admitted(AdmissionPoint.STATEMENT_TEXT, AdmittedStatement.UNGATED, null);
        tracker.queryEnd();
        assertThat(tracker.owesReadyForQuery()).as("a Query after the Sync is answered").isTrue();
    }

    /** Parse, Bind, Describe, Execute, Close, Sync: each answered in turn, the Bind hears its BindComplete. */
    @Test
    void parseDescribeAndCloseAreAnsweredInTheirTurn() {
        Recorder bind = new Recorder();
        tracker.statementMessageSent();
        tracker.admitted(AdmissionPoint.PREPARED_EXECUTION, bind, null);
        tracker.statementMessageSent();
        tracker.executeSent("");
        tracker.statementMessageSent();
        tracker.cycleEnd();

        tracker.statementMessageAnswered(); // ParseComplete
        tracker.bindComplete();
        assertThat(bind.signals).containsExactly(ReleaseSignal.PLANNED);
        tracker.statementMessageAnswered(); // RowDescription of the Describe
        tracker.executeComplete();
        tracker.statementMessageAnswered(); // CloseComplete
        tracker.readyForQuery();
        assertCaughtUp();
    }

    /**
     * A Parse whose ParseComplete the server holds until a Sync or Flush leaves the server with no work: a
     * cancel of the Bind queued behind it withdraws the Bind, it does not go to the idle server.
     */
    @Test
    void aParseAwaitingItsAnswerIsNoWorkInFlight() {
        tracker.statementMessageSent();
        assertThat(tracker.isIdle()).isTrue();
        tracker.executeSent("");
        assertThat(tracker.isIdle()).isFalse();
    }

    /** The server owes this client nothing and works on nothing of it. */
    private void assertCaughtUp() {
        assertThat(tracker.owesReadyForQuery()).as("ReadyForQuery owed").isFalse();
        assertThat(tracker.isIdle()).as("idle").isTrue();
    }

    private static final class Recorder implements AdmittedStatement {
        final List<ReleaseSignal> signals = new ArrayList<>();
        private final boolean plannedWhileRunning;

        Recorder() {
            this(false);
        }

        Recorder(boolean plannedWhileRunning) {
            this.plannedWhileRunning = plannedWhileRunning;
        }

        @Override
        public boolean plannedWhileRunning() {
            return plannedWhileRunning;
        }

        @Override
        public void signal(ReleaseSignal signal) {
            signals.add(signal);
        }
    }
}

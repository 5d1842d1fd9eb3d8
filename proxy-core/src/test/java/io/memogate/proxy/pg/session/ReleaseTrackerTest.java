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
        tracker.admitted(AdmissionPoint.SIMPLE_QUERY, query);
        tracker.cycleEnd();

        tracker.firstResponse(); // RowDescription
        tracker.firstResponse(); // CommandComplete of the same query
        tracker.readyForQuery();

        assertThat(query.signals).containsExactly(ReleaseSignal.FIRST_RESPONSE, ReleaseSignal.READY_FOR_QUERY);
        assertThat(tracker.isIdle()).isTrue();
    }

    @Test
    void pipelinedBindsCompleteInOrder() {
        Recorder first = new Recorder();
        Recorder second = new Recorder();
        tracker.admitted(AdmissionPoint.BIND, first);
        tracker.admitted(AdmissionPoint.BIND, second);
        tracker.cycleEnd();

        tracker.bindComplete();
        assertThat(first.signals).containsExactly(ReleaseSignal.BIND_COMPLETE);
        assertThat(second.signals).isEmpty();

        tracker.bindComplete();
        tracker.readyForQuery();
        assertThat(second.signals).containsExactly(ReleaseSignal.BIND_COMPLETE);
        assertThat(tracker.isIdle()).isTrue();
    }

    @Test
    void anErrorReleasesEveryBindTheServerWillSkipButNotTheNextBatch() {
        Recorder skipped = new Recorder();
        Recorder nextBatch = new Recorder();
        tracker.admitted(AdmissionPoint.BIND, skipped); // Parse failed before it: never bound
        tracker.cycleEnd();
        tracker.admitted(AdmissionPoint.BIND, nextBatch);
        tracker.cycleEnd();

        tracker.error();
        assertThat(skipped.signals).containsExactly(ReleaseSignal.ERROR);
        assertThat(nextBatch.signals).isEmpty();

        tracker.readyForQuery(); // ends the failed batch
        tracker.bindComplete();  // belongs to the next batch
        assertThat(nextBatch.signals).containsExactly(ReleaseSignal.BIND_COMPLETE);
    }

    @Test
    void disconnectReleasesEverythingInFlight() {
        Recorder query = new Recorder();
        Recorder bind = new Recorder();
        tracker.admitted(AdmissionPoint.SIMPLE_QUERY, query);
        tracker.cycleEnd();
        tracker.admitted(AdmissionPoint.BIND, bind);

        tracker.disconnect();

        assertThat(query.signals).containsExactly(ReleaseSignal.DISCONNECT);
        assertThat(bind.signals).containsExactly(ReleaseSignal.DISCONNECT);
        assertThat(tracker.isIdle()).isTrue();
    }

    @Test
    void ungatedStatementsShareEntriesAndStillKeepTheOrder() {
        Recorder gated = new Recorder();
        tracker.admitted(AdmissionPoint.BIND, AdmittedStatement.UNGATED);
        tracker.admitted(AdmissionPoint.BIND, gated);
        tracker.cycleEnd();

        tracker.bindComplete();
        assertThat(gated.signals).isEmpty();
        tracker.bindComplete();
        assertThat(gated.signals).containsExactly(ReleaseSignal.BIND_COMPLETE);
    }

    @Test
    void aBindPlannedWhileRunningIsHeldPastBindCompleteUntilItsCycleEnds() {
        Recorder doBlock = new Recorder(true);
        Recorder next = new Recorder();
        tracker.admitted(AdmissionPoint.BIND, doBlock);
        tracker.admitted(AdmissionPoint.BIND, next);
        tracker.cycleEnd();

        tracker.bindComplete(); // the DO block's: it runs now, and plans its queries
        assertThat(doBlock.signals).isEmpty();
        assertThat(tracker.isIdle()).isFalse();
        tracker.bindComplete(); // the next Bind's, after the DO block's Execute
        assertThat(next.signals).containsExactly(ReleaseSignal.BIND_COMPLETE);
        assertThat(doBlock.signals).isEmpty();

        tracker.readyForQuery();
        assertThat(doBlock.signals).containsExactly(ReleaseSignal.READY_FOR_QUERY);
        assertThat(tracker.isIdle()).isTrue();
    }

    @Test
    void aRunningBindIsReleasedWhenItsExecuteCompletes() {
        Recorder call = new Recorder(true);
        Recorder plain = new Recorder();
        tracker.admitted(AdmissionPoint.BIND, plain);
        tracker.admitted(AdmissionPoint.BIND, call);
        tracker.admitted(AdmissionPoint.BIND, new Recorder(true));

        tracker.bindComplete();
        tracker.executeComplete(); // the plain one's Execute: nothing runs yet
        tracker.bindComplete();
        assertThat(call.signals).isEmpty();
        tracker.executeComplete(); // CommandComplete of the call, before any Sync
        assertThat(call.signals).containsExactly(ReleaseSignal.EXECUTE_COMPLETE);
        assertThat(plain.signals).containsExactly(ReleaseSignal.BIND_COMPLETE);
        assertThat(tracker.isIdle()).as("the third Bind is still in flight").isFalse();
    }

    @Test
    void aRunningBindIsReleasedByAnErrorOrADisconnect() {
        Recorder failed = new Recorder(true);
        tracker.admitted(AdmissionPoint.BIND, failed);
        tracker.cycleEnd();
        tracker.bindComplete();
        tracker.error(); // the block raised
        assertThat(failed.signals).containsExactly(ReleaseSignal.ERROR);

        tracker.readyForQuery();
        Recorder gone = new Recorder(true);
        tracker.admitted(AdmissionPoint.BIND, gone);
        tracker.bindComplete(); // Execute and Flush, no Sync yet
        assertThat(tracker.isIdle()).isFalse();
        tracker.disconnect();
        assertThat(gone.signals).containsExactly(ReleaseSignal.DISCONNECT);
        assertThat(tracker.isIdle()).isTrue();
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

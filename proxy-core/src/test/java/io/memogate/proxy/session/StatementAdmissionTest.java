package io.memogate.proxy.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.proxy.admission.Admission;
import io.memogate.proxy.admission.AdmissionRejectedException;
import io.memogate.proxy.admission.AdmittedStatement;
import io.memogate.proxy.admission.QueuedAdmission;
import io.memogate.proxy.admission.ReleaseSignal;
import io.memogate.proxy.admission.WaitNotice;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.EventLoop;
import io.netty.channel.embedded.EmbeddedChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Hold, admit, forward, as every wing gets it: a statement admitted at once goes on without holding, one that
 * waits holds the session until its decision, comes back forwarded, refused or withdrawn, and its frame and
 * permits are given back when the session ended meanwhile or the wing failed on it.
 */
class StatementAdmissionTest {

    private final EmbeddedChannel client = new EmbeddedChannel();
    private final Session session = new Session();
    private final List<WaitNotice> notices = new ArrayList<>();
    private final StatementAdmission admission = new StatementAdmission(session, client, new LoopHandoff(session),
            new StatementAdmission.Notices() {
                @Override
                public boolean betweenMessages() {
                    return true;
                }

                @Override
                public void send(WaitNotice notice) {
                    notices.add(notice);
                }
            });

    /** The wing's session: ended when told, and what it was failed with. */
    private final class Session implements SessionLoop {
        boolean ended;
        String failure;

        @Override
        public EventLoop eventLoop() {
            return client.eventLoop();
        }

        @Override
        public boolean ended() {
            return ended;
        }

        @Override
        public void failInternally(String what) {
            failure = what;
            ended = true;
        }
    }

    /** The wing's side: records what became of the statement. */
    private static class Wing implements StatementAdmission.Outcome {
        final List<String> events = new ArrayList<>();

        @Override
        public void holding() {
            events.add("holding");
        }

        @Override
        public void admitted(OwnedFrame frame, AdmittedStatement admitted) {
            frame.take().release(); // forwarded
            events.add("forwarded");
        }

        @Override
        public void rejected(OwnedFrame frame, AdmissionRejectedException rejection) {
            frame.release();
            events.add("rejected: " + rejection.getMessage());
        }

        @Override
        public void cancelled(OwnedFrame frame) {
            frame.release();
            events.add("cancelled");
        }

        @Override
        public void released() {
            events.add("released");
        }
    }

    /** Permits that record their release signals. */
    private static final class Permits implements AdmittedStatement {
        final List<ReleaseSignal> signals = new ArrayList<>();

        @Override
        public void signal(ReleaseSignal signal) {
            signals.add(signal);
        }
    }


    private static OwnedFrame statement() {
        return new OwnedFrame(Unpooled.buffer(4).writeInt(42));
    }

    @Test
    void aStatementAdmittedAtOnceIsForwardedWithoutHoldingTheSession() {
        Wing wing = new Wing();
        admission.admit(Admission.IMMEDIATE, statement(), Duration.ZERO, wing);

        assertThat(wing.events).containsExactly("forwarded");
        assertThat(admission.holding()).isFalse();
    }

    @Test
    void aStatementThatWaitsHoldsTheSessionUntilItIsAdmittedOnTheLoop() {
        Wing wing = new Wing();
        QueuedAdmission queued = new QueuedAdmission();
        admission.admit(queued, statement(), Duration.ZERO, wing);
        assertThat(admission.holding()).isTrue();
        assertThat(admission.waitingWhere()).contains("statement queued for the LARGE gateway");

        queued.decision.complete(new Permits());
        assertThat(wing.events).as("the decision is taken on the session's loop, not on the gateway's thread")
                .containsExactly("holding");
        client.runPendingTasks();

        assertThat(wing.events).containsExactly("holding", "forwarded", "released");
        assertThat(admission.holding()).isFalse();
        assertThat(admission.waitingWhere()).isEmpty();
    }

    @Test
    void aRejectionIsTheWingsToAnswerAndTheSessionGoesOn() {
        Wing wing = new Wing();
        QueuedAdmission queued = new QueuedAdmission();
        admission.admit(queued, statement(), Duration.ZERO, wing);

        queued.decision.completeExceptionally(new AdmissionRejectedException("queue full", "detail", "hint"));
        client.runPendingTasks();

        assertThat(wing.events).containsExactly("holding", "rejected: queue full", "released");
        assertThat(session.ended).isFalse();
    }

    @Test
    void aCancelWithdrawsTheWaitingStatementWhichIsAnsweredAsCancelled() {
        Wing wing = new Wing();
        admission.admit(new QueuedAdmission(), statement(), Duration.ZERO, wing);

        assertThat(admission.withdraw()).isTrue();
        client.runPendingTasks();

        assertThat(wing.events).containsExactly("holding", "cancelled", "released");
    }

    @Test
    void aCancelAfterTheGrantBeforeTheLoopHasItKeepsTheStatementFromTheServer() {
        Wing wing = new Wing();
        QueuedAdmission queued = new QueuedAdmission();
        admission.admit(queued, statement(), Duration.ZERO, wing);
        Permits permits = new Permits();
        queued.decision.complete(permits); // on the gateways' thread; the loop has not run the decision yet

        assertThat(admission.withdraw()).as("the server would ignore a cancel: the statement never reaches it")
                .isTrue();
        client.runPendingTasks();

        assertThat(wing.events).containsExactly("holding", "cancelled", "released");
        assertThat(permits.signals).as("its permits go back").containsExactly(ReleaseSignal.DISCONNECT);
        assertThat(admission.withdraw()).as("nothing waits any more").isFalse();
    }

    @Test
    void aCancelAfterTheStatementWasForwardedWithdrawsNothing() {
        Wing wing = new Wing();
        QueuedAdmission queued = new QueuedAdmission();
        admission.admit(queued, statement(), Duration.ZERO, wing);
        queued.decision.complete(new Permits());
        client.runPendingTasks();

        assertThat(admission.withdraw()).as("the cancel is the server's to act on").isFalse();
        assertThat(wing.events).containsExactly("holding", "forwarded", "released");
    }

    @Test
    void aStatementAdmittedAfterItsSessionEndedIsDroppedAndItsPermitsGoBack() {
        Wing wing = new Wing();
        QueuedAdmission queued = new QueuedAdmission();
        OwnedFrame frame = statement();
        ByteBuf bytes = frame.peek();
        admission.admit(queued, frame, Duration.ZERO, wing);

        session.ended = true;
        Permits permits = new Permits();
        queued.decision.complete(permits);
        client.runPendingTasks();

        assertThat(wing.events).containsExactly("holding");
        assertThat(bytes.refCnt()).isZero();
        assertThat(permits.signals).containsExactly(ReleaseSignal.DISCONNECT);
    }

    @Test
    void aWingThatFailsOnTheAdmittedStatementEndsTheSessionAndGivesEverythingBack() {
        Wing broken = new Wing() {
            @Override
            public void admitted(OwnedFrame frame, AdmittedStatement admitted) {
                throw new IllegalStateException("broken on purpose");
            }
        };
        QueuedAdmission queued = new QueuedAdmission();
        OwnedFrame frame = statement();
        ByteBuf bytes = frame.peek();
        admission.admit(queued, frame, Duration.ZERO, broken);

        Permits permits = new Permits();
        queued.decision.complete(permits);
        client.runPendingTasks();

        assertThat(session.failure).startsWith("admission failed");
        assertThat(bytes.refCnt()).isZero();
        assertThat(permits.signals).containsExactly(ReleaseSignal.DISCONNECT);
    }

    @Test
    void aClientKeptWaitingIsToldOnceWhereItsStatementWaits() {
        Wing wing = new Wing();
        admission.admit(new QueuedAdmission(), statement(), Duration.ofMillis(1), wing);

        client.advanceTimeBy(2, TimeUnit.MILLISECONDS);
        client.runScheduledPendingTasks();
        client.advanceTimeBy(2, TimeUnit.MILLISECONDS);
        client.runScheduledPendingTasks();

        assertThat(notices).extracting(WaitNotice::where).containsExactly("statement queued for the LARGE gateway");
    }
}

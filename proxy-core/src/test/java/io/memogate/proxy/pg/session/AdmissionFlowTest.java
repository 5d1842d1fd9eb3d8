package io.memogate.proxy.pg.session;

import static io.memogate.proxy.pg.session.EmbeddedSession.frame;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.estimator.RoutineDefinitions;
import io.memogate.estimator.RoutineDefinitions.Language;
import io.memogate.estimator.RoutineDefinitions.Routine;
import io.memogate.proxy.admission.Admission;
import io.memogate.proxy.admission.AdmissionHook;
import io.memogate.proxy.admission.AdmittedStatement;
import io.memogate.proxy.admission.GatedAdmission;
import io.memogate.proxy.admission.ImmediateAdmission;
import io.memogate.proxy.admission.ReleaseSignal;
import io.memogate.proxy.pg.message.backend.ErrorResponse;
import io.memogate.proxy.pg.message.frontend.Bind;
import io.memogate.proxy.pg.message.frontend.Execute;
import io.memogate.proxy.pg.message.frontend.Parse;
import io.memogate.proxy.pg.message.frontend.Query;
import io.memogate.proxy.pg.message.frontend.Sync;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@link AdmissionFlow} on embedded channels. Long texts (a Query's, a Parse's, a prepared statement's at its
 * Bind) are read off the event loop, and what the client sent after them reaches the server behind them, in
 * order. Who owns a client frame while its statement is read or decided on another thread: a failure inside the
 * proxy ends the session with XX000, each frame is then released exactly once, by whoever still holds it, and the
 * permits a decision granted go back.
 */
class AdmissionFlowTest {

    private static final String PADDING = " -- " + "x".repeat(GatedAdmission.OFF_LOOP_CHARS);

    /** The permits of an admitted statement: records their release signals. */
    private static class Permits implements AdmittedStatement {
        final List<ReleaseSignal> signals = new ArrayList<>();

        @Override
        public void signal(ReleaseSignal signal) {
            signals.add(signal);
        }
    }

    /** The decision came, then the session broke before the Bind was forwarded (here: asking about the permits). */
    @Test
    void aFailureBeforeTheDecidedBindIsForwardedReleasesItAndItsPermits() {
        CompletableFuture<AdmittedStatement> gate = new CompletableFuture<>();
        try (EmbeddedSession session = new EmbeddedSession(request -> Admission.of(gate))) {
            session.send(frame(new Parse("s1", "select 1", List.of())));
            ByteBuf bind = frame(new Bind("", "s1"));
            session.send(bind.retain()); // and the test's own reference
            assertThat(session.toServer()).containsExactly('P');

            Permits permits = new Permits() {
                @Override
                public boolean plannedWhileRunning() {
                    throw new IllegalStateException("broken on purpose");
                }
            };
            gate.complete(permits);
            session.runLoop();

            assertThat(session.errorsToClient()).extracting(ErrorResponse::sqlState).containsExactly("XX000");
            assertThat(bind.release()).as("the session's reference was released, the test's is the last").isTrue();
            assertThat(permits.signals).as("its permits go back").contains(ReleaseSignal.DISCONNECT);
        }
    }

    @Test
    void aFailureWhileALongTextIsAdmittedReleasesItsFrame() {
        AdmissionHook broken = request -> {
            throw new IllegalStateException("broken on purpose");
        };
        try (EmbeddedSession session = new EmbeddedSession(broken)) {
            ByteBuf query = frame(new Query("select 1" + PADDING));
            session.send(query.retain()); // and the test's own reference
            assertThat(session.runTextReads()).isEqualTo(1);
            session.runLoop();

            assertThat(session.errorsToClient()).extracting(ErrorResponse::sqlState).containsExactly("XX000");
            assertThat(query.release()).as("the session's reference was released, the test's is the last").isTrue();
        }
    }

    /**
     * The decided Bind went to the server, then the Query queued behind it failed: the Query is released, the
     * Bind, the server's now, is not released a second time.
     */
    @Test
    void aFailureAfterTheBindWasForwardedReleasesWhatFollowedAndNotTheBindAgain() {
        CompletableFuture<AdmittedStatement> gate = new CompletableFuture<>();
        AdmissionHook hook = request -> {
            if (request.sql().equals("select 2")) {
                throw new IllegalStateException("broken on purpose");
            }
            return Admission.of(gate);
        };
        try (EmbeddedSession session = new EmbeddedSession(hook)) {
            session.send(frame(new Parse("s1", "select 1", List.of())));
            ByteBuf bind = frame(new Bind("", "s1"));
            session.send(bind.retain()); // and the test's own reference
            ByteBuf query = frame(new Query("select 2"));
            session.send(query.retain()); // and the test's own reference

            gate.complete(AdmittedStatement.UNGATED);
            session.runLoop();

            assertThat(session.errorsToClient()).extracting(ErrorResponse::sqlState).containsExactly("XX000");
            assertThat(query.release()).as("the session's reference was released, the test's is the last").isTrue();
            assertThat(bind.refCnt()).as("the test's and the server's").isEqualTo(2);
            assertThat(session.toServer()).containsExactly('P', 'B');
            assertThat(bind.release()).isTrue();
        }
    }

    /**
     * Frames queued behind a held Bind are forwarded as they are once it is admitted, with no owner object each:
     * still each is forwarded or released exactly once, the malformed one among them (the session ends at it, with
     * 08P01) and those behind it.
     */
    @Test
    void framesQueuedBehindAHeldStatementAreEachForwardedOrReleasedOnceThoughOneIsMalformed() {
        CompletableFuture<AdmittedStatement> gate = new CompletableFuture<>();
        try (EmbeddedSession session = new EmbeddedSession(request -> Admission.of(gate))) {
            session.send(frame(new Parse("s1", "select 1", List.of())));
            session.send(frame(new Bind("", "s1")));
            ByteBuf execute = frame(new Execute("", 0));
            ByteBuf malformedClose = Unpooled.buffer().writeByte('C').writeInt(4 + 4).writeByte('S')
                    .writeBytes("s1x".getBytes(StandardCharsets.US_ASCII)); // the statement name lacks its NUL
            ByteBuf sync = frame(Sync.INSTANCE);
            for (ByteBuf queued : List.of(execute, malformedClose, sync)) {
                session.send(queued.retain()); // and the test's own reference
            }
            assertThat(session.toServer()).containsExactly('P');

            gate.complete(AdmittedStatement.UNGATED);
            session.runLoop();

            assertThat(session.errorsToClient()).extracting(ErrorResponse::sqlState).containsExactly("08P01");
            assertThat(session.toServer()).containsExactly('B', 'E');
            assertThat(execute.release()).as("the server's reference was released, the test's is the last").isTrue();
            assertThat(malformedClose.release()).as("released once, where it failed").isTrue();
            assertThat(sync.release()).as("dropped after the violation, released once").isTrue();
        }
    }

    /** A failure inside the proxy while a frame forwarded as it is was noted: it is released, and the error goes on. */
    @Test
    void aFrameThatFailsBeforeItIsForwardedIsReleasedOnce() {
        try (EmbeddedSession session = new EmbeddedSession(new ImmediateAdmission())) {
            ByteBuf truncated = Unpooled.wrappedBuffer(new byte[] {'S'}); // no length word: no framer makes this
            assertThatThrownBy(() -> session.send(truncated.retain())).isInstanceOf(IndexOutOfBoundsException.class);
            assertThat(truncated.release()).as("the session's reference was released, the test's is the last").isTrue();
            assertThat(session.toServer()).isEmpty();
        }
    }

    @Test
    void aLongParseIsReadOffTheLoopAndWhatFollowsItWaitsBehindIt() {
        List<String> asked = new ArrayList<>();
        AdmissionHook recording = request -> {
            asked.add(request.sql());
            return Admission.IMMEDIATE;
        };
        try (EmbeddedSession session = new EmbeddedSession(recording)) {
            session.send(frame(new Parse("s1", "select 1" + PADDING, List.of())));
            session.send(frame(new Bind("", "s1")));
            session.send(frame(new Execute("", 0)));
            session.send(frame(Sync.INSTANCE));
            session.send(frame(new Query("select 2")));
            assertThat(session.toServer()).as("nothing while the Parse's text is read").isEmpty();
            assertThat(ClientViews.of(session.session).state()).isEqualTo("reading query text");

            assertThat(session.runTextReads()).as("decoded on the test's thread, not the loop's").isEqualTo(1);
            assertThat(session.toServer()).as("its answer is taken on the loop").isEmpty();
            session.runLoop();

            assertThat(session.toServer()).containsExactly('P', 'B', 'E', 'S', 'Q');
            assertThat(asked).containsExactly("select 1" + PADDING, "select 2");
            assertThat(ClientViews.of(session.session).state()).isNotEqualTo("reading query text");
        }
    }

    /** "offset" holds "set": each Bind lexes the text for SETs, which for a long one is done off the loop too. */
    @Test
    void aBindOfALongTextThatMayChangeTheSessionIsReadOffTheLoop() {
        try (EmbeddedSession session = new EmbeddedSession(request -> Admission.IMMEDIATE)) {
            session.send(frame(new Parse("s1", "select 1 offset 0" + PADDING, List.of())));
            session.send(frame(new Bind("", "s1")));
            session.send(frame(Sync.INSTANCE));
            assertThat(session.runTextReads()).as("the Parse's").isEqualTo(1);
            session.runLoop();
            assertThat(session.toServer()).containsExactly('P');

            assertThat(session.runTextReads()).as("the Bind's").isEqualTo(1);
            session.runLoop();
            assertThat(session.toServer()).containsExactly('B', 'S');
        }
    }

    /**
     * A text whose words may change the session ("offset" holds "set") is lexed at its first Bind, off the loop
     * for a long one (a second for 64 MiB); found to change nothing, it is not lexed again at the next Binds,
     * whether admission is asked about them or they bypass it.
     */
    @Test
    void aPreparedTextFoundToChangeNothingIsNotReadAgainAtItsNextBinds() {
        for (Admission admission : List.of(Admission.IMMEDIATE, Admission.BYPASS)) {
            try (EmbeddedSession session = new EmbeddedSession(request -> admission)) {
                session.send(frame(new Parse("s1", "update t set a = 1 offset 0" + PADDING, List.of())));
                assertThat(session.runTextReads()).as("the Parse's").isEqualTo(1);
                session.runLoop();
                runEach(session, "s1");
                assertThat(session.runTextReads()).as("the first Bind's").isEqualTo(1);
                session.runLoop();
                assertThat(session.toServer()).containsExactly('P', 'B', 'E', 'S');

                runEach(session, "s1");
                assertThat(session.runTextReads()).as("none at the second Bind").isZero();
                assertThat(session.toServer()).containsExactly('B', 'E', 'S');
            }
        }
    }

    /**
     * A cancel while a Parse's text is read fails it as the server would fail a Parse it cancelled: a stand-in
     * that the server fails in its place (its error becomes 57014 on the way back), then the server skips the
     * rest of the batch up to its Sync. The Parse never reaches the server.
     */
    @Test
    void aCancelWhileAParsesTextIsReadRefusesIt() {
        try (EmbeddedSession session = new EmbeddedSession(request -> Admission.IMMEDIATE)) {
            session.send(frame(new Parse("s1", "select 1" + PADDING, List.of())));
            session.send(frame(new Bind("", "s1")));
            session.send(frame(new Execute("", 0)));
            session.send(frame(Sync.INSTANCE));
            // What a CancelRequest or the console's CANCEL asks first; false would send the server a cancel.
            assertThat(session.session.admission.withdrawQueued()).as("withdrawn, not sent to the server").isTrue();

            session.runTextReads();
            session.runLoop();

            assertThat(session.toServer()).containsExactly('E', 'B', 'E', 'S');
        }
    }

    /**
     * Admission let both statements bypass (a SET plans nothing), so their later Binds skip it; each still sets
     * join_collapse_limit on the server at every run, and the session's settings must follow: the last Bind ran
     * "narrow".
     */
    @Test
    void aPreparedSetThatBypassesAdmissionStillChangesTheSessionAtEachBind() {
        try (EmbeddedSession session = new EmbeddedSession(request -> Admission.BYPASS)) {
            session.send(frame(new Parse("narrow", "set join_collapse_limit = 1", List.of())));
            session.send(frame(new Parse("wide", "set join_collapse_limit = 20", List.of())));
            runEach(session, "narrow", "wide", "narrow");

            assertThat(session.toServer()).containsExactly('P', 'P', 'B', 'E', 'B', 'E', 'B', 'E', 'S');
            assertThat(session.session.settings.current().joinCollapseLimit()).isEqualTo(1);
        }
    }

    /** As above, for a routine whose SET outlives it: bound again, it sets again. */
    @Test
    void aPreparedCallOfARoutineThatSetsChangesTheSessionAtEachBindThoughItBypasses() {
        RoutineDefinitions routines = RoutineDefinitions.of(List.of(
                Routine.of("public", "narrow", Language.PLPGSQL, "begin set join_collapse_limit = 1; end"),
                Routine.of("public", "widen", Language.PLPGSQL, "begin set join_collapse_limit = 20; end")));
        try (EmbeddedSession session = new EmbeddedSession(request -> Admission.BYPASS, () -> routines)) {
            session.send(frame(new Parse("n", "select narrow()", List.of())));
            session.send(frame(new Parse("w", "select widen()", List.of())));
            runEach(session, "n", "w", "n");

            assertThat(session.session.settings.current().joinCollapseLimit()).isEqualTo(1);
        }
    }

    /**
     * A long prepared text is sought for the names of the routines that set, which takes 80-300 ms for 64 MiB: with
     * its Parse, off the loop, for the routines known then, and at its first Bind after a catalog read that brought
     * others, off the loop too. The Binds after that take the answer kept.
     */
    @Test
    void aLongPreparedTextIsSoughtForRoutinesThatSetOffTheLoop() {
        AtomicReference<RoutineDefinitions> routines = new AtomicReference<>(RoutineDefinitions.NONE);
        try (EmbeddedSession session = new EmbeddedSession(request -> Admission.IMMEDIATE, routines::get)) {
            session.send(frame(new Parse("s1", "select 1" + PADDING, List.of())));
            assertThat(session.runTextReads()).as("the Parse's").isEqualTo(1);
            session.runLoop();
            runEach(session, "s1");
            assertThat(session.toServer()).containsExactly('P', 'B', 'E', 'S');

            routines.set(RoutineDefinitions.of(List.of(
                    Routine.of("public", "narrow", Language.PLPGSQL, "begin set join_collapse_limit = 1; end"))));
            runEach(session, "s1");
            assertThat(session.toServer()).as("the Bind waits for its text to be sought").isEmpty();
            assertThat(session.runTextReads()).isEqualTo(1);
            session.runLoop();
            assertThat(session.toServer()).containsExactly('B', 'E', 'S');

            runEach(session, "s1");
            assertThat(session.runTextReads()).as("sought once for these routines").isZero();
            assertThat(session.toServer()).containsExactly('B', 'E', 'S');

            session.send(frame(new Parse("s2", "select 2" + PADDING, List.of())));
            runEach(session, "s2");
            assertThat(session.runTextReads()).as("the Parse's, which seeks the routines known now").isEqualTo(1);
            session.runLoop();
            assertThat(session.runTextReads()).as("nothing more at its Bind").isZero();
            assertThat(session.toServer()).containsExactly('P', 'B', 'E', 'S');
        }
    }

    /** A batch that binds and executes each of the statements {@code names}, in order, then syncs. */
    private static void runEach(EmbeddedSession session, String... names) {
        for (String name : names) {
            session.send(frame(new Bind("", name)));
            session.send(frame(new Execute("", 0)));
        }
        session.send(frame(Sync.INSTANCE));
    }
}

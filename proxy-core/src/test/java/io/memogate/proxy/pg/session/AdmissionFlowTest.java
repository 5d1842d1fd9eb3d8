package io.memogate.proxy.pg.session;

import static io.memogate.proxy.pg.session.EmbeddedSession.frame;
import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.proxy.admission.Admission;
import io.memogate.proxy.admission.AdmissionHook;
import io.memogate.proxy.admission.AdmittedStatement;
import io.memogate.proxy.admission.GatedAdmission;
import io.memogate.proxy.admission.ReleaseSignal;
import io.memogate.proxy.pg.message.backend.ErrorResponse;
import io.memogate.proxy.pg.message.frontend.Bind;
import io.memogate.proxy.pg.message.frontend.Parse;
import io.memogate.proxy.pg.message.frontend.Query;
import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * {@link AdmissionFlow} on embedded channels: who owns a client frame while its statement is decided on
 * another thread. A failure inside the proxy ends the session with XX000; each frame is then released exactly
 * once, by whoever still holds it, and the permits a decision granted go back.
 */
class AdmissionFlowTest {

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
            session.send(bind);
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
            ByteBuf query = frame(new Query("select 1 -- " + "x".repeat(GatedAdmission.OFF_LOOP_CHARS)));
            session.send(query);
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
            session.send(bind);
            ByteBuf query = frame(new Query("select 2"));
            session.send(query);

            gate.complete(AdmittedStatement.UNGATED);
            session.runLoop();

            assertThat(session.errorsToClient()).extracting(ErrorResponse::sqlState).containsExactly("XX000");
            assertThat(query.release()).as("the session's reference was released, the test's is the last").isTrue();
            assertThat(bind.refCnt()).as("the test's and the server's").isEqualTo(2);
            assertThat(session.toServer()).containsExactly('P', 'B');
            assertThat(bind.release()).isTrue();
        }
    }
}

package io.memogate.proxy.mysql.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.proxy.admission.AdmittedStatement;
import io.memogate.proxy.mysql.codec.MySqlPackets;
import io.memogate.proxy.mysql.message.MySqlErrors;
import io.memogate.proxy.mysql.session.ResponseTracker.Shape;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Where each answer ends, as a statement's release signals and the proxy's own answers' turns show it. */
class ResponseTrackerTest {

    private final PreparedTexts statements = new PreparedTexts();
    private final ResponseTracker tracker = new ResponseTracker(statements);
    private final List<String> events = new ArrayList<>();
    private final List<ByteBuf> written = new ArrayList<>();

    private AdmittedStatement recording(String name) {
        return signal -> events.add(name + " " + signal);
    }

    private void server(int... payload) {
        ByteBuf packet = Unpooled.buffer();
        MySqlPackets.writeHeader(packet, payload.length, 1);
        for (int b : payload) {
            packet.writeByte(b);
        }
        tracker.serverPacket(packet);
        tracker.answersDue(answer -> {
            events.add("proxy answer");
            written.add(answer);
        });
        packet.release();
    }

    private static final int[] COLUMN = {3, 'd', 'e', 'f'};
    private static final int[] ROW = {1, '7'};
    private static final int[] EOF_DONE = {0xFE, 0, 0, 0x02, 0};
    private static final int[] EOF_MORE = {0xFE, 0, 0, 0x0A, 0};

    @Test
    void aResultSetEndsAtItsLastEofAndThenTheProxysAnswerGoes() {
        tracker.expect(Shape.RESULT, recording("q"));
        tracker.answerInTurn(MySqlErrors.cancelledWhileQueued(), 1, written::add, Unpooled.buffer());
        server(1);            // one column
        server(COLUMN);
        server(EOF_DONE);     // end of columns
        server(ROW);
        assertThat(events).containsExactly("q RUNNING", "q FIRST_RESPONSE");
        server(EOF_DONE);     // end of rows
        assertThat(events).containsExactly("q RUNNING", "q FIRST_RESPONSE", "q REQUEST_DONE", "proxy answer");
        assertThat(tracker.idle()).isTrue();
        written.forEach(ByteBuf::release);
    }

    @Test
    void moreResultsKeepTheStatementUntilTheLast() {
        tracker.expect(Shape.RESULT, recording("multi"));
        server(1);
        server(COLUMN);
        server(EOF_DONE);
        server(ROW);
        server(EOF_MORE);                              // SERVER_MORE_RESULTS_EXISTS: another follows
        server(0x00, 0, 0, 0x0A, 0, 0, 0);             // an OK, more still
        assertThat(tracker.idle()).isFalse();
        server(0x00, 1, 0, 0x02, 0, 0, 0);             // the last OK
        assertThat(events).endsWith("multi REQUEST_DONE");
        assertThat(tracker.idle()).isTrue();
    }

    @Test
    void withoutEofPacketsRowsEndAtAnOkMarkedEof() {
        tracker.deprecateEof(true);
        tracker.expect(Shape.RESULT, recording("q"));
        server(1);
        server(COLUMN);
        server(ROW);                                    // no EOF after the columns
        server(0xFE, 0, 0, 0x02, 0, 0, 0);              // OK with the EOF header
        assertThat(events).endsWith("q REQUEST_DONE");
    }

    @Test
    void anErrorEndsTheStatementWithoutMore() {
        tracker.expect(Shape.RESULT, recording("bad"));
        tracker.expect(Shape.RESULT, recording("next"));
        server(0xFF, 0x7A, 0x04, '#', '4', '2', 'S', '0', '2', 'x');
        assertThat(events).containsExactly("bad RUNNING", "bad ERROR", "next RUNNING");
    }

    @Test
    void aPrepareOkNamesTheIdItsTextIsExecutedBy() {
        statements.sent("SELECT ?");
        tracker.expectPrepare("SELECT ?");
        tracker.expect(Shape.SINGLE, recording("ping"));
        // PREPARE_OK: status, statement id 7, 1 column, 1 parameter, filler, no warnings
        server(0x00, 7, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0);
        server(COLUMN);       // the parameter
        server(EOF_DONE);
        server(COLUMN);       // the column
        assertThat(events).containsExactly();
        server(EOF_DONE);
        assertThat(events).containsExactly("ping RUNNING");
        assertThat(statements.textOf(7)).isEqualTo("SELECT ?");
        assertThat(statements.textOf(0xFFFFFFFFL)).as("MariaDB's id for the last prepared").isEqualTo("SELECT ?");
    }

    @Test
    void theProxysAnswerGoesAtOnceWhenNothingIsAwaited() {
        tracker.okInTurn(1, written::add, Unpooled.buffer());
        assertThat(written).hasSize(1);
        assertThat(MySqlPackets.firstByte(written.get(0))).isZero();
        written.forEach(ByteBuf::release);
    }

    @Test
    void aDisconnectReleasesWhatIsStillAnswered() {
        tracker.expect(Shape.RESULT, recording("q"));
        tracker.disconnect();
        assertThat(events).containsExactly("q RUNNING", "q DISCONNECT");
        assertThat(tracker.idle()).isTrue();
    }
}

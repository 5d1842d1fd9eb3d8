package io.memogate.proxy.mysql.session;

import io.memogate.estimator.dialect.DialectSettings;
import io.memogate.proxy.admission.Admission;
import io.memogate.proxy.admission.AdmissionPoint;
import io.memogate.proxy.admission.AdmissionRejectedException;
import io.memogate.proxy.admission.AdmittedStatement;
import io.memogate.proxy.admission.StatementRequest;
import io.memogate.proxy.mysql.codec.MySqlPackets;
import io.memogate.proxy.mysql.message.Commands;
import io.memogate.proxy.mysql.message.ErrPacket;
import io.memogate.proxy.mysql.message.MalformedPacketException;
import io.memogate.proxy.mysql.message.MySqlErrors;
import io.memogate.proxy.mysql.session.ResponseTracker.Shape;
import io.memogate.proxy.session.LoopHandoff;
import io.memogate.proxy.session.OwnedFrame;
import io.memogate.proxy.session.StatementAdmission;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The client's commands once logged in (protocol "Command Phase"). COM_QUERY, COM_STMT_EXECUTE and MariaDB's
 * COM_STMT_BULK_EXECUTE are admission points: each waits for its server's admission hook through the core's
 * {@link StatementAdmission} (hold, admit, forward), an execute with the text its statement was prepared with
 * ({@link PreparedTexts}).
 * A refused statement never reaches the server: its client gets an ERR in its turn ({@link MySqlErrors}) and
 * the session goes on. A {@code KILL QUERY} naming a session of this proxy whose statement is held withdraws
 * it ({@link KillTargets}); any other is forwarded. Every other command is relayed as it is, its answer's
 * shape noted so the tracker knows where it ends ({@link ResponseTracker}). Used on the session's event loop only.
 */
final class CommandFlow {

    private final MySqlSession session;
    private final ResponseTracker tracker;
    private final PreparedTexts statements;
    private final LoopHandoff handoff;
    private final StatementAdmission admission;
    private final SessionSettings settings = new SessionSettings();
    /** A KILL QUERY for another session of the proxy awaits that session's answer: input holds meanwhile. */
    private boolean killing;

    CommandFlow(MySqlSession session, ResponseTracker tracker, PreparedTexts statements) {
        this.session = session;
        this.tracker = tracker;
        this.statements = statements;
        this.handoff = new LoopHandoff(session);
        this.admission = new StatementAdmission(session, session.client, handoff, StatementAdmission.Notices.NONE);
    }

    /** A statement waits for admission, or a KILL for another session's answer. */
    boolean holding() {
        return admission.holding() || killing;
    }

    /** The held statement taken out of its queue (answered 1317); false when none waits. */
    boolean withdraw() {
        return admission.withdraw();
    }

    Optional<String> waitingWhere() {
        return admission.waitingWhere();
    }

    void closed() {
        admission.closed();
    }

    /** One command (a whole payload, however many packets), with nothing held before it. */
    void command(ByteBuf frame) {
        if (tracker.awaitsClientData()) {
            tracker.clientData(frame); // COM_CHANGE_USER's authentication, or a file LOAD DATA LOCAL asked for
            session.toServer(frame);
            return;
        }
        try {
            dispatch(frame);
        } catch (MalformedPacketException e) {
            frame.release(); // thrown while reading it, before it was handed on
            throw e;
        }
    }

    private void dispatch(ByteBuf frame) {
        int command = MySqlPackets.firstByte(frame);
        switch (command) {
            case -1 -> throw new MalformedPacketException("an empty command packet");
            case Commands.COM_QUIT -> session.quit(frame);
            case Commands.COM_QUERY -> query(frame);
            case Commands.COM_STMT_PREPARE -> {
                String text = text(frame);
                statements.sent(text);
                tracker.expectPrepare(text);
                session.toServer(frame);
            }
            case Commands.COM_STMT_EXECUTE -> {
                long id = statementId(frame, "COM_STMT_EXECUTE");
                admit(frame, AdmissionPoint.PREPARED_EXECUTION, () -> statements.textOf(id), false);
            }
            case Commands.COM_STMT_BULK_EXECUTE -> {
                // MariaDB runs the statement for every row of the batch; admitted once, with its prepared text.
                long id = statementId(frame, "COM_STMT_BULK_EXECUTE");
                admit(frame, AdmissionPoint.PREPARED_EXECUTION, () -> statements.textOf(id), false);
            }
            case Commands.COM_STMT_CLOSE -> {
                statements.closed(statementId(frame, "COM_STMT_CLOSE"));
                session.toServer(frame); // no answer
            }
            case Commands.COM_STMT_SEND_LONG_DATA -> session.toServer(frame); // no answer
            case Commands.COM_RESET_CONNECTION -> relay(frame, Shape.SINGLE, true);
            case Commands.COM_CHANGE_USER -> relay(frame, Shape.AUTH, true);
            case Commands.COM_STMT_FETCH, Commands.COM_FIELD_LIST -> relay(frame, Shape.ROWS, false);
            case Commands.COM_PROCESS_INFO -> relay(frame, Shape.RESULT, false);
            case Commands.COM_BINLOG_DUMP, Commands.COM_BINLOG_DUMP_GTID -> relay(frame, Shape.ENDLESS, false);
            default -> relay(frame, Shape.SINGLE, false); // OK, ERR, EOF or a string: one packet
        }
    }

    private void relay(ByteBuf frame, Shape shape, boolean resetsSession) {
        if (resetsSession) {
            statements.clear(); // the server deallocates every prepared statement of the connection
            settings.reset(); // and gives the session the global values of its variables
        }
        tracker.expect(shape, AdmittedStatement.UNGATED);
        session.toServer(frame);
    }

    private void query(ByteBuf frame) {
        ByteBuf payload = MySqlPackets.payload(frame);
        if (KillTargets.mayBeKill(payload)) {
            Optional<MySqlSession> target = KillTargets.killedThread(text(frame))
                    .flatMap(thread -> session.services.shared().kills().find(session.services.backend().name(), thread))
                    .filter(other -> other != session);
            if (target.isPresent()) {
                kill(frame, target.get());
                return;
            }
        }
        admit(frame, AdmissionPoint.STATEMENT_TEXT, () -> text(frame), true);
    }

    /**
     * Asks the server's hook (with the text only when it reads texts), then forwards, refuses or withdraws. The
     * statement is estimated with the session's optimizer settings; a text sent as it is ({@code followsSets})
     * changes them for the statements after it by its SETs.
     */
    private void admit(ByteBuf frame, AdmissionPoint point, Supplier<String> text, boolean followsSets) {
        var server = session.server;
        if (!server.hook().readsStatements()) {
            forward(frame, AdmittedStatement.UNGATED);
            return;
        }
        int answerSequenceId = MySqlPackets.sequenceId(frame) + 1;
        String sql = text.get();
        DialectSettings statementSettings = settings.forStatement(sql, server.support().serverDefaults().get());
        if (followsSets) {
            // In the order the server runs them: this text's SETs apply to the statements after it. A SET the server
            // refuses leaves its variable unchanged, as the settings refuse a value it would refuse.
            settings.sent(sql);
        }
        Admission decision = server.hook().admit(new StatementRequest(sql, point, session.info,
                session.threadId, statementSettings));
        admission.admit(decision, new OwnedFrame(frame), Duration.ZERO, new StatementAdmission.Outcome() {
            @Override
            public void holding() {
            }

            @Override
            public void admitted(OwnedFrame admitted, AdmittedStatement statement) {
                forward(admitted.take(), statement);
            }

            @Override
            public void rejected(OwnedFrame refused, AdmissionRejectedException rejection) {
                refused.release();
                answer(MySqlErrors.admissionRejected(rejection), answerSequenceId);
            }

            @Override
            public void cancelled(OwnedFrame refused) {
                refused.release();
                answer(MySqlErrors.cancelledWhileQueued(), answerSequenceId);
            }

            @Override
            public void released() {
                session.replayHeld();
            }
        });
    }

    private void forward(ByteBuf frame, AdmittedStatement admitted) {
        tracker.expect(Shape.RESULT, admitted);
        session.toServer(frame);
    }

    private void answer(ErrPacket error, int sequenceId) {
        tracker.answerInTurn(error, sequenceId & 0xFF, session::toClient, session.client.alloc().buffer());
        session.client.flush();
    }

    /**
     * A KILL QUERY naming another session of this proxy: that session withdraws its held statement, and this one
     * answers OK; when nothing was held there, the KILL goes to the server, which stops what runs.
     */
    private void kill(ByteBuf frame, MySqlSession target) {
        killing = true;
        int answerSequenceId = MySqlPackets.sequenceId(frame) + 1;
        OwnedFrame owned = new OwnedFrame(frame);
        target.withdrawHeld().whenComplete((withdrawn, failure) -> handoff.run("KILL QUERY", () -> {
            killing = false;
            if (session.ended()) {
                owned.release();
                return;
            }
            if (Boolean.TRUE.equals(withdrawn)) {
                owned.release();
                tracker.okInTurn(answerSequenceId & 0xFF, session::toClient, session.client.alloc().buffer());
            } else {
                forward(owned.take(), AdmittedStatement.UNGATED);
            }
            session.replayHeld();
        }, owned::release));
    }

    private static String text(ByteBuf frame) {
        ByteBuf payload = MySqlPackets.payload(frame);
        return payload.toString(payload.readerIndex() + 1, payload.readableBytes() - 1, StandardCharsets.UTF_8);
    }

    private static long statementId(ByteBuf frame, String command) {
        ByteBuf payload = MySqlPackets.payload(frame);
        if (payload.readableBytes() < 5) {
            throw new MalformedPacketException(command + " without a statement id");
        }
        return payload.getUnsignedIntLE(payload.readerIndex() + 1);
    }
}

package io.memogate.proxy.tds.session;

import io.memogate.proxy.admission.Admission;
import io.memogate.proxy.admission.AdmissionPoint;
import io.memogate.proxy.admission.AdmissionRejectedException;
import io.memogate.proxy.admission.AdmittedStatement;
import io.memogate.proxy.admission.StatementRequest;
import io.memogate.proxy.session.LoopHandoff;
import io.memogate.proxy.session.OwnedFrame;
import io.memogate.proxy.session.StatementAdmission;
import io.memogate.proxy.tds.codec.TdsPackets;
import io.memogate.proxy.tds.message.Done;
import io.memogate.proxy.tds.message.PacketType;
import io.memogate.proxy.tds.message.RpcBatch;
import io.memogate.proxy.tds.message.RpcCall;
import io.memogate.proxy.tds.message.RpcCall.Procedure;
import io.memogate.proxy.tds.message.RpcRequest;
import io.memogate.proxy.tds.message.SqlBatch;
import io.memogate.proxy.tds.message.TdsErrors;
import io.netty.buffer.ByteBuf;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client's requests once logged in. A SQLBatch is an admission point, and so is an RPC that carries a text
 * (sp_executesql, sp_prepare, sp_prepexec, the cursor procedures: {@link RpcRequest}) or executes a handle whose
 * text this session saw prepared ({@link PreparedHandles}, filled from the server's answers): its text waits for the server's
 * admission hook through the core's {@link StatementAdmission} (hold, admit, forward), estimated as T-SQL by the
 * estimator's SQL Server dialect. A refused batch never reaches the server: its client gets error
 * 8628 and a DONE with DONE_ERROR, and the session goes on. An ATTENTION while the batch is held withdraws it and
 * is answered here with DONE_ATTN, as the server answers an attention; otherwise it goes to the server, which
 * answers it, and the answer of the request it cancels still ends that request's admission. A refused RPC's
 * answer ends with DONEPROC. Every other request (other procedures, a handle prepared unseen, transaction manager,
 * bulk load) is relayed as it is. Used on the session's event loop only.
 */
final class BatchFlow {

    private static final Logger log = LoggerFactory.getLogger(BatchFlow.class);

    private final TdsSession session;
    private final Replies replies;
    private final StatementAdmission admission;
    private final PreparedHandles handles = new PreparedHandles();
    /** The held batch is withdrawn because its client sent an ATTENTION (not an operator's CANCEL). */
    private boolean attended;

    BatchFlow(TdsSession session, Replies replies) {
        this.session = session;
        this.replies = replies;
        // TDS has no message a server sends unasked: a client's query timeout sends an ATTENTION instead.
        this.admission = new StatementAdmission(session, session.client, new LoopHandoff(session),
                StatementAdmission.Notices.NONE);
    }

    boolean holding() {
        return admission.holding();
    }

    Optional<String> waitingWhere() {
        return admission.waitingWhere();
    }

    /** The operator's CANCEL: the held batch withdrawn, answered with an error; false when none waits. */
    boolean withdraw() {
        return admission.withdraw();
    }

    void closed() {
        admission.closed();
    }

    /** One whole client message, with nothing held before it; a malformed one is thrown before it is handed on. */
    void request(ByteBuf message) {
        int type = TdsPackets.type(message);
        if (type == PacketType.ATTENTION) {
            // Not a request of its own: it asks the server to end the one in flight, whose answer is still followed
            // to its end for that request's permits (the acknowledgement follows it, or comes alone when the answer
            // was already over).
            session.toServer(message);
            return;
        }
        if ((type != PacketType.SQL_BATCH && type != PacketType.RPC) || !session.server.hook().readsStatements()) {
            forward(message, AdmittedStatement.UNGATED, null);
            return;
        }
        ByteBuf data = TdsPackets.data(message, session.client.alloc());
        if (type == PacketType.SQL_BATCH) {
            String text;
            try {
                text = SqlBatch.text(data, session.allHeaders);
            } finally {
                data.release();
            }
            admit(message, text, new Done[] {Done.ERROR}, null);
            return;
        }
        RpcBatch calls;
        try {
            calls = RpcRequest.readAll(data, session.allHeaders);
        } finally {
            data.release();
        }
        rpc(message, calls);
    }

    /**
     * RPCs: the statement each carries, or that of the handle it executes, through admission together, weighed by
     * the largest (joined as one batch of statements); the rest relayed. A prepare's handle is read from the answer
     * when it is the message's only request.
     */
    private void rpc(ByteBuf message, RpcBatch batch) {
        List<String> texts = new ArrayList<>();
        for (RpcCall call : batch.calls()) {
            Procedure procedure = call.procedure();
            if (procedure.dropsHandle()) {
                call.handle().ifPresent(handle -> handles.drop(procedure.cursor(), handle));
            }
            Optional<String> text = procedure.executesHandle() && call.handle().isPresent()
                    ? handles.statement(procedure.cursor(), call.handle().getAsInt()) : call.text();
            text.map(BatchFlow::withoutLastSemicolon).ifPresent(texts::add);
        }
        if (texts.isEmpty()) {
            // other procedures, handles this session did not see prepared, or texts in a type not read
            forward(message, AdmittedStatement.UNGATED, null);
            return;
        }
        RpcCall only = batch.calls().size() == 1 ? batch.calls().get(0) : null;
        PreparedHandles.Watch watch = only != null && only.procedure().returnsHandle()
                ? handles.watch(only.procedure().cursor(), only.text().orElseThrow(), session.allHeaders) : null;
        admit(message, String.join(";\n", texts), Done.procErrors(batch.calls().size()), watch);
    }

    private static String withoutLastSemicolon(String text) {
        String trimmed = text.strip();
        return trimmed.endsWith(";") ? trimmed.substring(0, trimmed.length() - 1) : trimmed;
    }

    /**
     * An ATTENTION that came while a batch is held: the batch is withdrawn and the attention answered here. When
     * the decision came first (the batch is on its way to the server), the attention waits its turn behind it.
     *
     * @return true when the attention was answered here and released
     */
    boolean attention(ByteBuf packet) {
        attended = true;
        Optional<String> where = admission.waitingWhere();
        if (admission.withdraw()) {
            packet.release();
            // Often the client's own query timeout (SqlClient's CommandTimeout, 30 s by default): TDS cannot tell
            // a waiting client why it waits, so the log is where a DBA sees that the wait outlasted it.
            log.info("{} sent an ATTENTION while its batch waited for admission ({}): withdrawn before the server "
                    + "saw it", session, where.orElse("admitted, not yet sent"));
            return true;
        }
        attended = false;
        return false;
    }

    /**
     * Waits for the hook's decision on {@code text}; a refusal ends the request's answer with {@code answerEnd}
     * (a DONE, or a DONEPROC per RPC). An
     * admitted prepare's answer is read by {@code watch} (null: not a prepare).
     */
    private void admit(ByteBuf message, String text, Done[] answerEnd, PreparedHandles.Watch watch) {
        var server = session.server;
        Admission decision = server.hook().admit(new StatementRequest(text, AdmissionPoint.STATEMENT_TEXT,
                session.info, session.spid, server.support().serverDefaults().get()));
        admission.admit(decision, new OwnedFrame(message), Duration.ZERO, new StatementAdmission.Outcome() {
            @Override
            public void holding() {
                session.readClientForAttention();
            }

            @Override
            public void admitted(OwnedFrame admitted, AdmittedStatement statement) {
                forward(admitted.take(), statement, watch);
            }

            @Override
            public void rejected(OwnedFrame refused, AdmissionRejectedException rejection) {
                refused.release();
                log.info("refused a batch of {}: {} ({})", session, rejection.getMessage(), rejection.detail());
                session.reply(TdsErrors.admissionRejected(rejection), answerEnd);
            }

            @Override
            public void cancelled(OwnedFrame withdrawn) {
                withdrawn.release();
                if (attended) {
                    attended = false;
                    // As a server answers a cancelled request: the request's answer ends (a DONE of no rows, end of
                    // message), then the acknowledgement comes in a message of its own, which clients read for
                    // the attention still pending at the end of the answer.
                    session.reply(null, Done.CANCELLED);
                    session.reply(null, Done.ATTENTION);
                } else {
                    session.reply(TdsErrors.cancelledWhileQueued(), answerEnd);
                }
            }

            @Override
            public void released() {
                session.replayHeld();
            }
        });
    }

    private void forward(ByteBuf message, AdmittedStatement admitted, PreparedHandles.Watch watch) {
        replies.expect(admitted, watch);
        session.toServer(message);
    }
}

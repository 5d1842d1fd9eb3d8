package io.memogate.proxy.pg.session;

import io.memogate.proxy.pg.admission.SessionSettings;
import io.memogate.proxy.pg.codec.MessageRunDecoder;
import io.memogate.proxy.pg.message.backend.BackendKeyData;
import io.memogate.proxy.pg.message.backend.BackendType;
import io.memogate.proxy.pg.message.backend.BindComplete;
import io.memogate.proxy.pg.message.backend.CommandComplete;
import io.memogate.proxy.pg.message.backend.DataRow;
import io.memogate.proxy.pg.message.backend.EmptyQueryResponse;
import io.memogate.proxy.pg.message.backend.ErrorResponse;
import io.memogate.proxy.pg.message.backend.NotificationResponse;
import io.memogate.proxy.pg.message.backend.ReadyForQuery;
import io.memogate.proxy.pg.message.backend.ReadyForQuery.TransactionStatus;
import io.memogate.proxy.pg.message.backend.RowDescription;
import io.netty.buffer.ByteBuf;

/**
 * What the session learns from the server's messages in READY state, each seen in place before its run
 * is forwarded (the {@link MessageRunDecoder}'s inspector): the release signals of admitted statements
 * ({@link ReleaseTracker}), the transaction status of each ReadyForQuery, a ROLLBACK inside a transaction
 * or an error (either undoes the SETs not yet committed), a FATAL that ends the session, and the server's
 * error for a refused statement's stand-in, which is replaced by the refusal ({@link RefusedStatements}); the
 * answers to the proxy's own messages around a degraded statement, which the client never sees ({@link DegradedRuns}); the
 * session's own notifications after a recycle are given the process id the client was told.
 * Used on the session's event loop only.
 */
final class ServerResponses implements MessageRunDecoder.Inspector {

    private final PgSession session;
    private final ReleaseTracker tracker;
    private final RefusedStatements refused;
    private final SessionSettings settings;
    private final DegradedRuns degradedRuns;
    private TransactionStatus transactionStatus = TransactionStatus.IDLE;
    private MessageRunDecoder relay;

    ServerResponses(PgSession session, ReleaseTracker tracker, RefusedStatements refused, SessionSettings settings,
                    DegradedRuns degradedRuns) {
        this.session = session;
        this.degradedRuns = degradedRuns;
        this.tracker = tracker;
        this.refused = refused;
        this.settings = settings;
    }

    /**
     * The framer of the server's messages once logged in (and again after each recycle), with this as its
     * inspector.
     */
    MessageRunDecoder newRelay() {
        relay = new MessageRunDecoder(this, BackendConnector.MAX_BACKEND_FRAME_BYTES);
        return relay;
    }

    /** Whether the client has been sent part of a server message and not yet its rest. */
    boolean clientMidMessage() {
        return relay != null && relay.midMessage();
    }

    /** From the last ReadyForQuery. */
    TransactionStatus transactionStatus() {
        return transactionStatus;
    }

    /** The ReadyForQuery that ended authentication, seen before this inspector was in place. */
    void authenticated(TransactionStatus status) {
        transactionStatus = status;
    }

    /**
     * Rows (DataRow, CopyData) teach nothing, so a big one is relayed as it arrives; but not while the
     * server answers the recycler's state check, which reads its rows whole ({@link ServerRecycler}).
     */
    @Override
    public boolean mayStream(byte type) {
        return (type == DataRow.TYPE || type == BackendType.COPY_DATA) && session.state == PgSession.State.READY;
    }

    /**
     * Called for each server message of a run, in place, before the run is forwarded; returns what to
     * forward instead, or null (almost always) to forward the message itself.
     */
    @Override
    public ByteBuf message(byte type, ByteBuf buf, int index, int length) {
        ByteBuf own = degradedRuns.message(type, buf, index, length, session.client.alloc());
        if (own != null) {
            return own; // an answer to the proxy's own messages around a degraded statement
        }
        switch (type) {
            case DataRow.TYPE -> { } // the common case, nothing to learn
            case CommandComplete.TYPE -> {
                tracker.firstResponse();
                tracker.executeComplete();
                if (transactionStatus != TransactionStatus.IDLE && CommandTags.isRollback(buf, index, length)) {
                    settings.rollbackSeen();
                }
            }
            case EmptyQueryResponse.TYPE -> {
                tracker.firstResponse();
                tracker.executeComplete();
            }
            case BackendType.PORTAL_SUSPENDED -> tracker.executeComplete();
            case BackendType.COPY_IN_RESPONSE -> {
                tracker.firstResponse();
                tracker.copyInStarted();
                if (tracker.copyingIn()) {
                    session.copyDataAwaited();
                }
                caughtUpIfOwingNothing();
            }
            case RowDescription.TYPE -> {
                tracker.firstResponse();
                tracker.statementMessageAnswered(); // when it ends a Describe
            }
            case BackendType.COPY_OUT_RESPONSE, BackendType.COPY_BOTH_RESPONSE -> tracker.firstResponse();
            case BackendType.PARSE_COMPLETE, BackendType.CLOSE_COMPLETE, BackendType.NO_DATA ->
                    tracker.statementMessageAnswered();
            case BindComplete.TYPE -> tracker.bindComplete();
            case NotificationResponse.TYPE -> {
                return ownNotificationAsTold(buf, index, length);
            }
            case ErrorResponse.TYPE -> {
                tracker.error();
                settings.errorSeen();
                ErrorResponse error = ErrorResponse.decode(buf.slice(index, 1 + length));
                if (error.endsSession()) {
                    session.sessionEndExpected();
                }
                caughtUpIfOwingNothing(); // after an error in a batch, Queries in it are skipped
                ErrorResponse replacement = refused.replacementFor(error);
                if (replacement == null) {
                    replacement = degradedRuns.inPlaceOfError();
                }
                if (replacement != null) {
                    ByteBuf out = session.client.alloc().buffer();
                    replacement.encode(out);
                    return out;
                }
            }
            case ReadyForQuery.TYPE -> {
                transactionStatus = TransactionStatus.of(buf.getByte(index + 5));
                tracker.readyForQuery();
                settings.readyForQuery(transactionStatus == TransactionStatus.IDLE);
                caughtUpIfOwingNothing();
                if (tracker.isIdle()) {
                    refused.nothingInFlight();
                }
            }
            default -> { }
        }
        return null;
    }

    /**
     * A notification the session's own server process sent (a NOTIFY of this session on a channel it
     * listens to), once a recycle has replaced the process the client was told of: it names the told
     * process, so that the client recognises it as its own, as it would have before the recycle. Others'
     * notifications name their senders, as they came.
     */
    private ByteBuf ownNotificationAsTold(ByteBuf buf, int index, int length) {
        BackendKeyData server = session.serverKey();
        BackendKeyData told = session.clientKey();
        if (server == null || told == null || told.processId() == server.processId()
                || NotificationResponse.processId(buf, index) != server.processId()) {
            return null;
        }
        return NotificationResponse.withProcessId(buf, index, length, told.processId(), session.client.alloc());
    }

    /**
     * Tells the session when the server owes no answer to a whole statement: none is unanswered, or the server
     * reads COPY data and answers nothing until the client ends it (a CopyInResponse).
     */
    private void caughtUpIfOwingNothing() {
        if (!tracker.owesReadyForQuery() || tracker.copyingIn()) {
            session.serverCaughtUp();
        }
    }
}

package io.memogate.proxy.pg.session;

import io.memogate.proxy.admission.AdmissionPoint;
import io.memogate.proxy.admission.AdmittedStatement;
import io.memogate.proxy.admission.GatedAdmission;
import io.memogate.proxy.pg.message.MalformedMessageException;
import io.memogate.proxy.pg.message.PgWire;
import io.memogate.proxy.pg.message.frontend.Bind;
import io.memogate.proxy.pg.message.frontend.Close;
import io.memogate.proxy.pg.message.frontend.CopyDone;
import io.memogate.proxy.pg.message.frontend.CopyFail;
import io.memogate.proxy.pg.message.frontend.Describe;
import io.memogate.proxy.pg.message.frontend.Execute;
import io.memogate.proxy.pg.message.frontend.Flush;
import io.memogate.proxy.pg.message.frontend.FrontendType;
import io.memogate.proxy.pg.message.frontend.Parse;
import io.memogate.proxy.pg.message.frontend.Query;
import io.memogate.proxy.pg.message.frontend.StatementOrPortal;
import io.memogate.proxy.pg.message.frontend.Sync;
import io.memogate.proxy.pg.message.frontend.Terminate;
import io.netty.buffer.ByteBuf;

/**
 * What the client's messages in READY state tell the session before they are forwarded ({@link AdmissionFlow}):
 * where the extended protocol's cycle is, what the server will answer ({@link ReleaseTracker}), which statements
 * are prepared (Parse, Close). Every message but a statement that waits for admission or for its text to be read
 * goes to the server as it is, on the event loop, and is noted here on the raw frame, before it is handed on: what
 * throws leaves the frame to the caller to release. Describe, Execute of the unnamed portal, Sync, Flush and COPY
 * data are noted without making an object, and with gateways off so are Query and Bind: the relay of pgbench's
 * transactions makes none (a gated Bind is admitted, Parse and Close are decoded). Used on the session's event loop
 * only.
 */
final class RelayedMessages {

    private final ReleaseTracker tracker;
    private final PreparedStatements statements;
    /**
     * The hook admits everything unread (gateways off): Query and Bind are checked and forwarded without
     * their text being decoded or followed, since nothing would read it.
     */
    private final boolean statementBlind;
    /**
     * Extended-protocol messages were sent since the last Sync: the server may be part-way through a
     * batch (a Parse and Describe before a Flush, say), though it owes no ReadyForQuery yet.
     */
    private boolean midCycle;

    RelayedMessages(ReleaseTracker tracker, PreparedStatements statements, boolean statementBlind) {
        this.tracker = tracker;
        this.statements = statements;
        this.statementBlind = statementBlind;
    }

    /** Extended-protocol messages were sent and no Sync after them yet. */
    boolean midCycle() {
        return midCycle;
    }

    /**
     * Notes a client message, which the caller then forwards as it is; false for a statement that may wait for
     * admission or for its text to be read (a Query or Bind the hook reads, a long Parse), of which only where the
     * cycle is was noted.
     *
     * @throws MalformedMessageException for a malformed message, or one of a type no client sends here
     */
    boolean forwardsAsItIs(byte type, ByteBuf frame) {
        switch (type) {
            case Parse.TYPE, Bind.TYPE, Close.TYPE, Describe.TYPE, Execute.TYPE, Flush.TYPE -> midCycle = true;
            case Sync.TYPE -> midCycle = false;
            default -> { } // a Query is its own cycle; COPY data belongs to the statement that started it
        }
        switch (type) {
            case Query.TYPE -> {
                if (!statementBlind) {
                    return false;
                }
                Query.check(frame);
                admitted(frame, AdmissionPoint.STATEMENT_TEXT, AdmittedStatement.UNGATED);
            }
            case Bind.TYPE -> {
                if (!statementBlind) {
                    return false;
                }
                Bind.check(frame);
                admitted(frame, AdmissionPoint.PREPARED_EXECUTION, AdmittedStatement.UNGATED);
            }
            case Parse.TYPE -> {
                if (statementBlind) {
                    Parse.check(frame); // no Bind will ask for its text
                } else if (frame.readableBytes() >= GatedAdmission.OFF_LOOP_CHARS) {
                    return false;
                } else {
                    Parse parse = Parse.decode(frame);
                    statements.parsed(parse.statementName(), parse.sql());
                }
                tracker.statementMessageSent();
            }
            case Close.TYPE -> {
                Close close = Close.decode(frame);
                if (close.target() == StatementOrPortal.STATEMENT) {
                    statements.closed(close.name());
                }
                tracker.statementMessageSent();
            }
            // Sync and FunctionCall end in ReadyForQuery.
            case Sync.TYPE -> tracker.cycleEnd();
            case FrontendType.FUNCTION_CALL -> tracker.queryEnd();
            case Execute.TYPE -> tracker.executeSent(Execute.portalOf(frame));
            case CopyDone.TYPE, CopyFail.TYPE -> tracker.copyEnded(); // the end of a COPY FROM STDIN's data
            case Describe.TYPE -> tracker.statementMessageSent();
            case Flush.TYPE, FrontendType.COPY_DATA, Terminate.TYPE -> { }
            default -> throw new MalformedMessageException("unknown message type '" + PgWire.printableType(type) + "'");
        }
        return true;
    }

    /**
     * Notes an admitted statement about to be forwarded; true for a Bind kept while it runs, which wants a Flush
     * behind it.
     */
    boolean admitted(ByteBuf frame, AdmissionPoint point, AdmittedStatement admitted) {
        boolean kept = point == AdmissionPoint.PREPARED_EXECUTION && admitted.plannedWhileRunning();
        // A Bind kept while it runs is matched to its Execute by portal; the others need no name decoded.
        tracker.admitted(point, admitted, kept ? Bind.decode(frame).portalName() : null);
        if (point == AdmissionPoint.STATEMENT_TEXT) {
            tracker.queryEnd();
        }
        return kept;
    }
}

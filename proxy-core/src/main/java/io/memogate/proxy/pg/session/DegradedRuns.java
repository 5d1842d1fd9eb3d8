package io.memogate.proxy.pg.session;

import io.memogate.proxy.admission.Degraded;
import io.memogate.proxy.pg.message.backend.BackendType;
import io.memogate.proxy.pg.message.backend.BindComplete;
import io.memogate.proxy.pg.message.backend.CommandComplete;
import io.memogate.proxy.pg.message.backend.EmptyQueryResponse;
import io.memogate.proxy.pg.message.backend.ErrorResponse;
import io.memogate.proxy.pg.message.backend.NotificationResponse;
import io.memogate.proxy.pg.message.backend.ParameterStatus;
import io.memogate.proxy.pg.message.backend.PgErrors;
import io.memogate.proxy.pg.message.backend.ReadyForQuery;
import io.memogate.proxy.pg.message.backend.RowDescription;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.util.ArrayDeque;

/**
 * Statements run under tighter planner settings than their session's ({@link Degraded}), and the server's answers
 * to the proxy's own messages around them ({@link DegradeMessages}), which the client never sees. The proxy's
 * messages go in one write with the statement, so that nothing the client sends after it can come between.
 *
 * <p>The server answers in the order it reads, so the answers are split into parts, in order ({@link Part}): in
 * the simple protocol each part is one query cycle, ending at its ReadyForQuery; in the extended protocol a part
 * ends after a known number of answers that each end the answer to one message ({@link #endsAnAnswer}): the
 * client's cycles and simple Queries still unanswered before its Bind (a driver's BEGIN), each ending at its
 * ReadyForQuery, then the messages of the Bind's own cycle sent before it (its Parse), see
 * {@link #cyclesBefore}; then the proxy's saving run, the Bind's BindComplete, the proxy's restoring run. Notices,
 * parameter changes and notifications pass wherever they come.
 *
 * <p>Towards the client: the proxy's answers are dropped, and the last answer to the part that sets the settings
 * becomes the one NOTICE that says what was changed and why; the statement's own answers pass. In the simple
 * protocol its ReadyForQuery is held back and the restoring part's stands for it (idle after the proxy's commit, as
 * the statement alone would leave the session): the client is told it is ready only once the proxy's commit or
 * restore is done, so that its next statement finds the session as it left it (and may be degraded in turn), and
 * the statement's outcome includes that commit's. An error of the commit (a deferred constraint, a serialization
 * failure) passes after the statement's CommandComplete, as an implicit transaction's commit error does in the
 * extended protocol; the server alone, committing a simple Query, sends it in place of the CommandComplete.
 *
 * <p>Errors. Simple protocol: should the proxy's setting part fail (a cancel meant for the statement that reached
 * the server before it), the statement then fails with 25P02 in the block the failure aborted: the client gets the
 * setting part's error in its place, which is what it would have got had the cancel reached its statement, and no
 * notice; an error of the statement aborts the block, and the proxy's commit (answered ROLLBACK) or restore (25P02)
 * is dropped, the block's end restoring the values; a failure of the restoring part after the statement succeeded
 * (a deferred constraint at the commit, a cancel) passes as the statement's. Extended protocol: after any error the
 * server skips every message up to the client's Sync, the proxy's too, so the parts still expected are forgotten and
 * the error passes (in the proxy's part it stands for the skipped Bind's: the client sees its statement fail as the
 * cancel meant); the implicit transaction or the client's block is then aborted, which restores the values. A FATAL
 * passes whatever it answers. Used on the session's event loop only.
 */
final class DegradedRuns {

    /** Whose answers a part of the stream holds. */
    private enum Part {
        /** The client's cycles, then the messages of the Bind's cycle, sent before the Bind: passed. */
        CLIENTS_EARLIER(false),
        /** The proxy's begin and SET LOCALs, or its saving query: dropped, the last answer becomes the NOTICE. */
        OWN_SETTING(true),
        /** The degraded statement's answers: passed. */
        CLIENTS_STATEMENT(false),
        /** The proxy's commit, or its restoring query: dropped. */
        OWN_RESTORING(true);

        final boolean own;

        Part(boolean own) {
            this.own = own;
        }
    }

    /**
     * One part of the answers.
     *
     * @param answers in the extended protocol, how many ending answers it has left; unused in the simple one
     */
    private static final class Step {
        final Part part;
        final Degraded degraded;
        final boolean extended;
        int answers;

        Step(Part part, Degraded degraded, boolean extended, int answers) {
            this.part = part;
            this.degraded = degraded;
            this.extended = extended;
            this.answers = answers;
        }
    }

    private final ArrayDeque<Step> expected = new ArrayDeque<>();
    /** The error that failed the proxy's setting part, to be shown in place of the statement's; null when none did. */
    private ErrorResponse settingFailure;
    /** The statement's own error passed: the restoring part's that follows from it (25P02) is dropped. */
    private boolean statementFailed;

    /** Nothing of the proxy's own is in flight: the server's next answers are to what the client sent. */
    boolean idle() {
        return expected.isEmpty();
    }

    /**
     * What to send the server in place of the client's simple {@code query}, which it takes over.
     *
     * @param inBlock the client's transaction block is open: the values are saved and restored in it
     */
    ByteBuf wrapQuery(ByteBuf query, Degraded degraded, boolean inBlock, ByteBufAllocator alloc) {
        ByteBuf out = alloc.buffer();
        DegradeMessages.query(inBlock ? DegradeMessages.saveAndSet(degraded.degradation())
                : DegradeMessages.begin(degraded.degradation()), out);
        out.writeBytes(query, query.readerIndex(), query.readableBytes());
        query.release();
        DegradeMessages.query(inBlock ? DegradeMessages.restore(degraded.degradation()) : DegradeMessages.COMMIT, out);
        expected.add(new Step(Part.OWN_SETTING, degraded, false, 0));
        expected.add(new Step(Part.CLIENTS_STATEMENT, degraded, false, 0));
        expected.add(new Step(Part.OWN_RESTORING, degraded, false, 0));
        return out;
    }

    /**
     * What to send the server in place of the client's {@code bind}, which it takes over.
     *
     * @param earlierCycles how many cycles (and simple Queries) the client sent before it are unanswered
     * @param earlierAnswers how many messages of its own cycle before it are unanswered
     */
    ByteBuf wrapBind(ByteBuf bind, Degraded degraded, int earlierCycles, int earlierAnswers, ByteBufAllocator alloc) {
        ByteBuf out = alloc.buffer();
        DegradeMessages.extendedRun(DegradeMessages.saveAndSet(degraded.degradation()), out);
        out.writeBytes(bind, bind.readerIndex(), bind.readableBytes());
        bind.release();
        DegradeMessages.extendedRun(DegradeMessages.restore(degraded.degradation()), out);
        for (int cycle = 0; cycle < earlierCycles; cycle++) {
            expected.add(new Step(Part.CLIENTS_EARLIER, degraded, false, 0));
        }
        if (earlierAnswers > 0) {
            expected.add(new Step(Part.CLIENTS_EARLIER, degraded, true, earlierAnswers));
        }
        expected.add(new Step(Part.OWN_SETTING, degraded, true, DegradeMessages.EXTENDED_RUN_ANSWERS));
        expected.add(new Step(Part.CLIENTS_STATEMENT, degraded, true, 1));
        expected.add(new Step(Part.OWN_RESTORING, degraded, true, DegradeMessages.EXTENDED_RUN_ANSWERS));
        return out;
    }

    /**
     * How many ReadyForQuery messages the server still owes before a Bind sent now (whole cycles and simple Queries
     * sent before it, whatever they answer); -1 when what it sends cannot be counted
     * ({@link ReleaseTracker#countableInFlight()}).
     */
    static int cyclesBefore(ReleaseTracker tracker) {
        Iterable<InFlight> inFlight = tracker.countableInFlight();
        if (inFlight == null) {
            return -1;
        }
        int cycles = 0;
        for (InFlight entry : inFlight) {
            cycles += entry == InFlight.Marker.CYCLE_END || entry == InFlight.Marker.QUERY_END ? 1 : 0;
        }
        return cycles;
    }

    /**
     * How many messages of the Bind's own cycle, sent before it, are unanswered (Parse, Bind, Describe, Execute,
     * Close: each answer ends with one known message), after the cycles {@link #cyclesBefore} counts.
     */
    static int answersBefore(ReleaseTracker tracker) {
        int answers = 0;
        for (InFlight entry : tracker.countableInFlight()) {
            boolean cycleEnd = entry == InFlight.Marker.CYCLE_END || entry == InFlight.Marker.QUERY_END;
            answers = cycleEnd ? 0 : entry instanceof InFlight.PendingQuery ? answers : answers + 1;
        }
        return answers;
    }

    /**
     * One of the server's messages, before the session looks at it: null to let it pass (the client's), or what
     * the client gets in its place (an empty buffer drops it).
     */
    ByteBuf message(byte type, ByteBuf buf, int index, int length, ByteBufAllocator alloc) {
        Step step = expected.peekFirst();
        if (step == null || passesAnywhere(type)) {
            return null;
        }
        if (type == ErrorResponse.TYPE) {
            return error(step, ErrorResponse.decode(buf.slice(index, 1 + length)));
        }
        if (step.extended) {
            return extendedAnswer(step, type, alloc);
        }
        if (type != ReadyForQuery.TYPE) {
            return step.part.own ? Unpooled.EMPTY_BUFFER : null;
        }
        expected.pollFirst();
        return switch (step.part) {
            // The statement did not run degraded when the setting part failed: no notice then.
            case OWN_SETTING -> settingFailure == null ? notice(step.degraded, alloc) : Unpooled.EMPTY_BUFFER;
            case CLIENTS_STATEMENT -> {
                settingFailure = null;
                yield Unpooled.EMPTY_BUFFER; // the restoring part's stands for it
            }
            case CLIENTS_EARLIER -> null;
            case OWN_RESTORING -> {
                statementFailed = false;
                yield null;
            }
        };
    }

    private ByteBuf error(Step step, ErrorResponse error) {
        if (error.endsSession() || step.extended) {
            // A FATAL ends the session as any other. In the extended protocol the server now skips to the client's
            // Sync, the proxy's messages too: nothing more of the parts comes, and the error stands for the client's.
            if (step.extended) {
                expected.clear();
            }
            return null;
        }
        return switch (step.part) {
            case OWN_SETTING -> {
                settingFailure = error;
                yield Unpooled.EMPTY_BUFFER;
            }
            case CLIENTS_STATEMENT -> {
                statementFailed = true;
                yield null; // passes, or the setting part's in its place ({@link #inPlaceOfError})
            }
            case CLIENTS_EARLIER -> null;
            // The statement succeeded and its commit or restore did not: the client learns its statement failed.
            case OWN_RESTORING -> statementFailed ? Unpooled.EMPTY_BUFFER : null;
        };
    }

    private ByteBuf extendedAnswer(Step step, byte type, ByteBufAllocator alloc) {
        if (type == ReadyForQuery.TYPE) {
            expected.clear(); // a Sync's answer: every part before it has been answered or skipped
            return null;
        }
        boolean last = endsAnAnswer(type) && --step.answers == 0;
        if (last) {
            expected.pollFirst();
        }
        if (!step.part.own) {
            return null;
        }
        return last && step.part == Part.OWN_SETTING ? notice(step.degraded, alloc) : Unpooled.EMPTY_BUFFER;
    }

    /** Messages the server sends whenever it has to, answers to nothing: a notice, a parameter, a notification. */
    private static boolean passesAnywhere(byte type) {
        return type == ErrorResponse.NOTICE_TYPE || type == ParameterStatus.TYPE
                || type == NotificationResponse.TYPE;
    }

    /**
     * The last message of the server's answer to one extended-protocol message: ParseComplete, BindComplete,
     * CloseComplete, the RowDescription or NoData that ends a Describe (its ParameterDescription does not), an
     * Execute's CommandComplete, EmptyQueryResponse or PortalSuspended.
     */
    private static boolean endsAnAnswer(byte type) {
        return type == BackendType.PARSE_COMPLETE || type == BindComplete.TYPE || type == BackendType.CLOSE_COMPLETE
                || type == RowDescription.TYPE || type == BackendType.NO_DATA || type == CommandComplete.TYPE
                || type == EmptyQueryResponse.TYPE || type == BackendType.PORTAL_SUSPENDED;
    }

    /**
     * What the client gets in place of an error of the statement's: the error that failed the proxy's setting
     * part, when one did (the statement's is then only 25P02); null for the statement's own.
     */
    ErrorResponse inPlaceOfError() {
        Step step = expected.peekFirst();
        return step != null && step.part == Part.CLIENTS_STATEMENT ? settingFailure : null;
    }

    private static ByteBuf notice(Degraded degraded, ByteBufAllocator alloc) {
        ByteBuf out = alloc.buffer();
        PgErrors.degradedNotice(degraded).encode(out);
        return out;
    }
}

package io.memogate.proxy.pg.session;

import io.memogate.estimator.RoutineDefinitions;
import io.memogate.estimator.dialect.DialectSettings;
import io.memogate.estimator.lexer.LexicalAnalyzer;
import io.memogate.estimator.postgres.PlannerSettings;
import io.memogate.proxy.admission.Admission;
import io.memogate.proxy.admission.AdmissionPoint;
import io.memogate.proxy.admission.AdmissionRejectedException;
import io.memogate.proxy.admission.AdmittedStatement;
import io.memogate.proxy.admission.Degraded;
import io.memogate.proxy.admission.GatedAdmission;
import io.memogate.proxy.admission.LoginSettings;
import io.memogate.proxy.admission.StatementRequest;
import io.memogate.proxy.pg.admission.DegradableText;
import io.memogate.proxy.pg.admission.PreparedQueries;
import io.memogate.proxy.pg.admission.SentText;
import io.memogate.proxy.pg.admission.SessionSettings;
import io.memogate.proxy.pg.codec.ClientMessageDecoder;
import io.memogate.proxy.pg.message.MalformedMessageException;
import io.memogate.proxy.pg.message.PgWire;
import io.memogate.proxy.pg.message.backend.ErrorResponse;
import io.memogate.proxy.pg.message.backend.PgErrors;
import io.memogate.proxy.pg.message.backend.ReadyForQuery.TransactionStatus;
import io.memogate.proxy.pg.message.frontend.Bind;
import io.memogate.proxy.pg.message.frontend.Flush;
import io.memogate.proxy.pg.message.frontend.Parse;
import io.memogate.proxy.pg.message.frontend.Query;
import io.memogate.proxy.pg.message.frontend.Sync;
import io.memogate.proxy.pg.message.frontend.Terminate;
import io.memogate.proxy.postgres.PostgresServer;
import io.memogate.proxy.postgres.catalog.RoleSettings;
import io.memogate.proxy.session.LoopHandoff;
import io.memogate.proxy.session.OwnedFrame;
import io.memogate.proxy.session.StatementAdmission;
import io.netty.buffer.ByteBuf;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client's messages in READY state (DESIGN.md, "Admission points and release points"): each is
 * decoded only as far as admission and release tracking need, and a simple Query or a Bind waits for
 * the admission hook before it is forwarded. While one waits, or a long text is read off the event loop
 * ({@link OffLoopText}), later frames queue behind it in order and the client is not read
 * ({@link PgSession#readClientIfPossible}). Parse and Close keep the session's prepared statements, so a Bind
 * is admitted with the text the server is about to plan.
 *
 * <p>A Bind, CopyData or FunctionCall too long to hold whole arrives as a head and parts
 * ({@link ClientMessageDecoder}): the head is handled as the message, and the parts follow it to the server, or
 * are dropped with it.
 *
 * <p>A refused statement (gateway rejection, or a cancel while queued) is failed on the server itself
 * through a stand-in ({@link RefusedStatements}); {@link ServerResponses} puts the refusal back in
 * place of the server's error.
 *
 * <p>A statement that may leave the loop (its admission decided, or its text read, on another thread) is an
 * {@link OwnedFrame}, taken out where it is forwarded or released: whatever fails, on the loop or in a task that
 * comes back to it ({@link LoopHandoff}), it is released exactly once. Every other frame is forwarded as it is,
 * on the loop ({@link RelayedMessages}), with no object made for it. Used on the session's event loop only.
 */
final class AdmissionFlow {

    private static final Logger log = LoggerFactory.getLogger(AdmissionFlow.class);

    private final PgSession session;
    private final ReleaseTracker tracker;
    private final RefusedStatements refused;
    private final ServerResponses responses;
    private final DegradedRuns degradedRuns;
    private final SessionSettings settings;
    /** {@link SessionSettings#withRoleSettings}, bound once: each statement's request carries it. */
    private final Supplier<Function<LoginSettings, DialectSettings>> settingsWithLogin;
    private final PreparedQueries preparedQueries;
    private final PreparedStatements statements = new PreparedStatements();
    /** What the messages forwarded as they are tell the session, noted before they are. */
    private final RelayedMessages relayed;
    /** Hold, admit, forward: the statement that waits is withdrawn by a cancel, and told of a long wait. */
    private final StatementAdmission statementAdmission;
    /** Long texts read off the event loop: while one is, the session holds as for admission. */
    private final OffLoopText texts;
    /**
     * A refused Bind made the server skip to the next Sync: the Binds until then will not be planned,
     * so they pass ungated.
     */
    private boolean skippingToSync;
    /** The rest of a long Bind, CopyData or FunctionCall: the next frames are its parts, not messages. */
    private final MessageParts parts;
    /** The client sent Terminate: what it sends after is dropped. */
    private boolean terminated;
    /** Whether the client broke the protocol: what it sent after, even if queued before, is dropped. */
    private final FatalAfterAnswers fatalAfterAnswers;
    private final LoopHandoff handoff;
    private final LastLadder ladder = new LastLadder();

    AdmissionFlow(PgSession session, ReleaseTracker tracker, RefusedStatements refused, ServerResponses responses,
                  DegradedRuns degradedRuns, SessionSettings settings, PreparedQueries preparedQueries, FatalAfterAnswers fatalAfterAnswers) {
        this.session = session;
        this.fatalAfterAnswers = fatalAfterAnswers;
        this.tracker = tracker;
        this.refused = refused;
        this.responses = responses;
        this.degradedRuns = degradedRuns;
        this.settings = settings;
        this.settingsWithLogin = () -> {
            Function<RoleSettings, PlannerSettings> withRoles = settings.withRoleSettings();
            return login -> withRoles.apply(PostgresServer.roleSettings(login));
        };
        this.preparedQueries = preparedQueries;
        this.relayed = new RelayedMessages(tracker, statements, !session.services.admission().readsStatements());
        this.handoff = new LoopHandoff(session);
        this.statementAdmission = new StatementAdmission(session, session.client, handoff,
                new WaitNotices(session.client, responses));
        this.texts = new OffLoopText(session, handoff);
        this.parts = new MessageParts(session, this::flushServer);
    }

    /** A client frame in READY state, with nothing held before it (the session queues what comes meanwhile). */
    void frame(ByteBuf frame) {
        dispatchClientFrame(frame);
    }

    /** Extended-protocol messages were sent and no Sync after them yet. */
    boolean midCycle() {
        return relayed.midCycle();
    }

    /** Part of a long message has been relayed and the rest is still to come. */
    boolean midMessage() {
        return parts.toCome();
    }

    /** A statement waits for admission, or for its text to be read. */
    boolean holding() {
        return statementAdmission.holding() || texts.reading();
    }

    /** A long statement text is being read off the event loop ({@link OffLoopText}): it is in no queue yet. */
    boolean readingText() {
        return texts.reading();
    }

    /** A statement waits for admission or the server has not answered everything sent. */
    boolean busy() {
        return !tracker.isIdle() || holding();
    }

    /**
     * Takes the waiting statement out of its queue, so a cancel is answered 57014 without reaching the
     * server; false, and nothing withdrawn, while the server still works on an earlier statement of
     * this client, which the cancel is then for.
     */
    boolean withdrawQueued() {
        if (!tracker.isIdle()) {
            return false;
        }
        return texts.cancel() || statementAdmission.withdraw();
    }

    /** Where the waiting statement is queued, in words; empty when none waits. */
    Optional<String> waitingWhere() {
        return statementAdmission.waitingWhere();
    }

    /** The session ended: stop waiting (the decision then finds it closed and releases the frame). */
    void closed() {
        statementAdmission.closed();
    }

    /**
     * A frame forwarded as it is, on the loop ({@link RelayedMessages}), stays raw: it is noted in the try, which
     * releases it when that fails, and handed on after it, so it is forwarded or released exactly once with no
     * object made for it. A statement that may leave the loop is an {@link OwnedFrame} from the start.
     */
    private void dispatchClientFrame(ByteBuf frame) {
        if (terminated || fatalAfterAnswers.clientStreamBroken()) {
            // After Terminate, as PostgreSQL, which exits at it; after a malformed message, which it never
            // reads past (frames queued behind a held statement come here once it is admitted).
            frame.release();
            return;
        }
        if (parts.toCome()) {
            parts.relay(frame);
            return;
        }
        OwnedFrame statement = null;
        byte type;
        try {
            parts.head(frame);
            type = frame.getByte(frame.readerIndex());
            if (!relayed.forwardsAsItIs(type, frame)) {
                statement = new OwnedFrame(frame);
                dispatchStatement(type, statement);
                return;
            }
        } catch (MalformedMessageException e) {
            release(statement, frame); // thrown while decoding, before the frame was handed on
            session.protocolViolation(e.getMessage());
            return;
        } catch (RuntimeException e) {
            release(statement, frame); // the session ends where this is caught: a frame not handed on is released here
            throw e;
        }
        skippingToSync &= type != Sync.TYPE; // where the server stops skipping
        if (type == Terminate.TYPE) {
            terminated = true;
            session.terminate(frame);
        } else {
            session.forwardToBackend(frame);
        }
    }

    /** A frame that failed before it was handed on: the statement's, if it became one, else the raw frame. */
    private static void release(OwnedFrame statement, ByteBuf frame) {
        if (statement != null) {
            statement.release();
        } else {
            frame.release();
        }
    }

    /** A simple Query, Bind or long Parse whose admission is asked, or whose text is read off the loop. */
    private void dispatchStatement(byte type, OwnedFrame owned) {
        ByteBuf frame = owned.peek();
        switch (type) {
            case Query.TYPE -> {
                if (frame.readableBytes() >= GatedAdmission.OFF_LOOP_CHARS) {
                    LexicalAnalyzer analyzer = analyzer();
                    RoutineDefinitions routines = settings.routines();
                    readOffLoop(owned, "reading a query text", true,
                            bytes -> SentText.read(Query.sql(bytes), analyzer, routines),
                            (read, text) -> admitThenForward(read, text.sql(), text, AdmissionPoint.STATEMENT_TEXT,
                                    null));
                } else {
                    String sql = Query.sql(frame);
                    admitThenForward(owned, sql, SentText.readIfChanging(sql, analyzer(), settings.routines()),
                            AdmissionPoint.STATEMENT_TEXT, null);
                }
            }
            case Bind.TYPE -> admitBind(owned, statements.boundName(frame));
            case Parse.TYPE -> {
                RoutineDefinitions routines = settings.routines();
                readOffLoop(owned, "reading a Parse's text", false,
                        bytes -> PreparedStatements.ReadParse.of(bytes, routines),
                        (read, parse) -> {
                            statements.parsed(parse);
                            tracker.statementMessageSent();
                            session.forwardToBackend(read.take());
                        });
            }
            default -> throw new IllegalStateException("not a statement: '" + PgWire.printableType(type) + "'");
        }
    }

    /**
     * Reads a long text off the event loop ({@link OffLoopText}), then {@code then} goes on with it on the loop,
     * and the frames the client sent behind it follow; a cancel that came meanwhile refuses it instead.
     *
     * @param simpleQuery the frame is a simple Query, a cycle of its own; else a message of an extended batch
     */
    private <T> void readOffLoop(OwnedFrame frame, String what, boolean simpleQuery, Function<ByteBuf, T> read,
                                 BiConsumer<OwnedFrame, T> then) {
        texts.read(frame, what, read, new OffLoopText.Outcome<>() {
            @Override
            public void read(OwnedFrame readFrame, T text) {
                then.accept(readFrame, text);
                dispatchHeld();
            }

            @Override
            public void cancelled(OwnedFrame readFrame) {
                refuse(readFrame, simpleQuery, PgErrors.queryCanceled());
                dispatchHeld();
            }
        });
    }

    /**
     * A Bind admitted with its statement's text, which is lexed when it may change the session's settings or
     * SQL-prepared statements (SentText): off the loop for a long text, as a long Query's is. One that bypassed
     * admission before is not asked again, but its text still changes the session at each Bind.
     */
    private void admitBind(OwnedFrame frame, String name) {
        String sql = statements.sqlOf(name);
        RoutineDefinitions routines = settings.routines();
        boolean longText = sql.length() >= GatedAdmission.OFF_LOOP_CHARS;
        // A long text not yet sought for the routines of a catalog read since its Parse is sought off the loop.
        if (!(longText && statements.unsought(name, routines)) && !statements.mayChangeSession(name, routines)) {
            SentText unread = statements.unreadText(name);
            admitThenForward(frame, unread.sql(), unread, AdmissionPoint.PREPARED_EXECUTION, name);
        } else if (longText) {
            LexicalAnalyzer analyzer = analyzer();
            readOffLoop(frame, "reading a prepared statement's text", false,
                    bytes -> SentText.read(sql, analyzer, routines), (read, text) -> {
                        statements.read(name, routines, text);
                        admitThenForward(read, sql, text, AdmissionPoint.PREPARED_EXECUTION, name);
                    });
        } else {
            SentText text = SentText.read(sql, analyzer(), routines);
            statements.read(name, routines, text);
            admitThenForward(frame, sql, text, AdmissionPoint.PREPARED_EXECUTION, name);
        }
    }

    private LexicalAnalyzer analyzer() {
        return session.server.support().analyzer();
    }

    /**
     * @param changes the text read for what it changes in the session; null when it holds none of the words that
     *     may (nearly every simple Query: nothing is made for it)
     * @param statementName for a Bind, the prepared statement's name; null for a simple query
     */
    private void admitThenForward(OwnedFrame frame, String sql, SentText changes, AdmissionPoint point,
                                  String statementName) {
        TransactionStatus transactionStatus = responses.transactionStatus();
        if (changes != null) {
            changes.applyTo(settings, preparedQueries, transactionStatus != TransactionStatus.IDLE);
        }
        // The server plans nothing in a failed transaction (25P02) or while skipping to Sync: no gate.
        if (transactionStatus == TransactionStatus.FAILED || skippingToSync) {
            forwardAdmitted(frame, point, AdmittedStatement.UNGATED);
            return;
        }
        // Taken before asking: a catalog read that lands meanwhile then makes the next Bind ask again.
        Object catalogVersion = statementName == null ? null : catalogVersion();
        if (statementName != null && statements.bypasses(statementName, catalogVersion)) {
            // Not asked again, but shown to the session's settings above all the same: a prepared SET, or a call
            // of a routine that sets, bypasses admission and sets again at each run.
            forwardAdmitted(frame, point, AdmittedStatement.UNGATED);
            return;
        }
        StatementRequest request = new StatementRequest(sql, point, session.info, session.serverConnection(),
                settings.current(), preparedQueries, settingsWithLogin);
        Admission admission = mayDegrade(sql, changes, point, transactionStatus)
                ? session.server.hook().admit(request, ladder.of(settings.current()))
                : session.server.hook().admit(request);
        if (admission.bypassed() && statementName != null) {
            statements.bypassing(statementName, catalogVersion);
        }
        AdmittedStatement atOnce = StatementAdmission.admittedAtOnce(admission);
        if (atOnce != null) { // the common case: nothing waits, nothing more is made for the statement
            forwardAdmitted(frame, point, atOnce, admission.degraded());
            return;
        }
        statementAdmission.admit(admission, frame, session.server.support().waitNoticeAfter(),
                waitingStatement(admission, point, statementName, catalogVersion));
    }

    /** What becomes of a statement that waits for its admission, once decided. */
    private StatementAdmission.Outcome waitingStatement(Admission admission, AdmissionPoint point, String statementName,
                                                       Object catalogVersion) {
        return new StatementAdmission.Outcome() {
            @Override
            public void holding() {
                if (!tracker.isIdle()) {
                    tracker.releaseUnexecuted();
                    flushServer();
                }
            }

            @Override
            public void admitted(OwnedFrame admittedFrame, AdmittedStatement admitted) {
                if (statementName != null && admission.bypassed()) {
                    // known only now when it was estimated off the loop
                    statements.bypassing(statementName, catalogVersion);
                }
                forwardAdmitted(admittedFrame, point, admitted, admission.degraded());
            }

            @Override
            public void rejected(OwnedFrame refusedFrame, AdmissionRejectedException rejection) {
                refuse(refusedFrame, point == AdmissionPoint.STATEMENT_TEXT,
                        PgErrors.admissionRejected(rejection));
            }

            @Override
            public void cancelled(OwnedFrame refusedFrame) {
                refuse(refusedFrame, point == AdmissionPoint.STATEMENT_TEXT, PgErrors.queryCanceled());
            }

            @Override
            public void released() {
                dispatchHeld();
            }
        };
    }

    private Object catalogVersion() {
        return session.server.hook().catalogVersion(session.info.database());
    }

    /**
     * Sends the server a Flush before a statement of this session waits while earlier ones are in flight. The
     * server holds back what it answered them (BindComplete, CommandComplete) until a Sync or Flush, and a
     * batch's Sync is behind the waiting statement: without the Flush an earlier statement of the batch
     * would keep the permit this one waits for until this one timed out.
     */
    private void flushServer() {
        ByteBuf flush = session.backend().alloc().buffer(5);
        Flush.INSTANCE.encode(flush);
        session.forwardToBackend(flush);
        session.backend().flush();
    }

    /**
     * What the client sent behind a statement that no longer holds: handled in order, until one holds again. A
     * bad message the client sent behind them all is refused once they are handled (not after its Terminate:
     * PostgreSQL exits there, reading no further).
     */
    private void dispatchHeld() {
        session.replayHeld();
        if (!holding() && session.nothingHeld() && !terminated && session.state == PgSession.State.READY) {
            fatalAfterAnswers.heldHandled();
        }
        session.backend().flush();
        session.readClientIfPossible();
    }

    /**
     * Answers a statement with {@code error} instead of running it, leaving client and server exactly
     * where PostgreSQL would had the statement failed: the server is sent a statement naming a portal that
     * does not exist in its place ({@link RefusedStatements}), which fails at the same point of the stream (an
     * explicit transaction becomes failed, an extended batch skips to its Sync, an implicit one rolls back), and
     * the server's "does not exist" error is replaced by {@code error} on its way back.
     */
    private void refuse(OwnedFrame frame, boolean simpleQuery, ErrorResponse error) {
        frame.take().release(); // the stand-in goes in its place
        parts.dropRest(); // a long Bind's parts follow its head out
        ByteBuf out = session.backend().alloc().buffer();
        refused.standIn(error, simpleQuery).encode(out);
        if (simpleQuery) {
            tracker.queryEnd();
        } else {
            skippingToSync = true;
        }
        session.forwardToBackend(out);
    }

    /**
     * Whether the statement may run under tighter settings, were it never to fit the target or to wait too long
     * ({@link DegradedRuns}): a statement of a kind that runs the same in the proxy's block, whose text neither changes
     * the session nor names the settings; a simple Query with nothing of the session's in flight, in a block of the
     * client's or not; a Bind that the server plans, whole, when the answers still due before it can be counted
     * ({@link DegradedRuns#cyclesBefore}). Others are admitted as they are.
     */
    private boolean mayDegrade(String sql, SentText changes, AdmissionPoint point, TransactionStatus status) {
        if (status == TransactionStatus.FAILED || !degradedRuns.idle() || changes != null && changes.changesSession()
                || !session.server.hook().degrades(session.info)) {
            return false;
        }
        if (point == AdmissionPoint.STATEMENT_TEXT) {
            return tracker.isIdle() && DegradableText.mayDegrade(sql);
        }
        return !parts.toCome() && DegradedRuns.cyclesBefore(tracker) >= 0 && DegradableText.mayDegradeAtBind(sql);
    }

    private void forwardAdmitted(OwnedFrame frame, AdmissionPoint point, AdmittedStatement admitted) {
        forwardAdmitted(frame, point, admitted, Optional.empty());
    }

    /** @param degraded the tighter settings the statement runs under, when admission chose them */
    private void forwardAdmitted(OwnedFrame frame, AdmissionPoint point, AdmittedStatement admitted,
                                 Optional<Degraded> degraded) {
        // Counted before the Bind itself is in flight: the answers that come before the proxy's own.
        boolean bindDegraded = degraded.isPresent() && point == AdmissionPoint.PREPARED_EXECUTION;
        int earlierCycles = bindDegraded ? DegradedRuns.cyclesBefore(tracker) : 0;
        // An earlier message of the cycle failed while the Bind waited: the server skips it, the proxy's messages too.
        boolean asItIs = degraded.isEmpty() || earlierCycles < 0;
        int earlierAnswers = bindDegraded && !asItIs ? DegradedRuns.answersBefore(tracker) : 0;
        boolean kept = relayed.admitted(frame.peek(), point, admitted);
        session.forwardToBackend(asItIs ? frame.take() : point == AdmissionPoint.STATEMENT_TEXT
                ? degradedRuns.wrapQuery(frame.take(), degraded.get(),
                        responses.transactionStatus() == TransactionStatus.IN_TRANSACTION, session.backend().alloc())
                : degradedRuns.wrapBind(frame.take(), degraded.get(), earlierCycles, earlierAnswers,
                        session.backend().alloc()));
        if (kept) {
            // Its hold starts at its BindComplete, which the server would keep until its Sync, after the run: a
            // Flush right behind the Bind has it sent when the server gets to the statement. Behind all of it: a
            // long Bind's parts are still to come, and a Flush among them would be read as parameter bytes.
            parts.flushAfter();
        }
    }
}

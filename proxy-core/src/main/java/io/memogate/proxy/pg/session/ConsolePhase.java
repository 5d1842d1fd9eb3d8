package io.memogate.proxy.pg.session;

import io.memogate.proxy.admin.ConsoleException;
import io.memogate.proxy.admin.ConsoleResult;
import io.memogate.proxy.admin.ConsoleService;
import io.memogate.proxy.admin.ResultTable;
import io.memogate.proxy.pg.message.MalformedMessageException;
import io.memogate.proxy.pg.message.PgWire;
import io.memogate.proxy.pg.message.backend.BackendMessage;
import io.memogate.proxy.pg.message.backend.BindComplete;
import io.memogate.proxy.pg.message.backend.BodilessMessage;
import io.memogate.proxy.pg.message.backend.CommandComplete;
import io.memogate.proxy.pg.message.backend.DataRow;
import io.memogate.proxy.pg.message.backend.EmptyQueryResponse;
import io.memogate.proxy.pg.message.backend.ErrorResponse;
import io.memogate.proxy.pg.message.backend.ParameterDescription;
import io.memogate.proxy.pg.message.backend.PgErrors;
import io.memogate.proxy.pg.message.backend.ReadyForQuery;
import io.memogate.proxy.pg.message.backend.ReadyForQuery.TransactionStatus;
import io.memogate.proxy.pg.message.backend.RowDescription;
import io.memogate.proxy.pg.message.frontend.Bind;
import io.memogate.proxy.pg.message.frontend.BoundPortal;
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
import io.memogate.proxy.pg.session.ConsoleStatements.Portal;
import io.memogate.proxy.pg.session.ConsoleStatements.Prepared;
import io.memogate.proxy.pg.session.ConsoleStatements.StepFailed;
import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A session to the admin console, the virtual database "memogate" (PgBouncer's habit). Its login goes
 * to the default backend's server like any other (database admin.authDatabase) and the proxy decides
 * nothing about it; at the server's ReadyForQuery the role is checked against admin.users, the server
 * connection is ended, and from then on the proxy answers the session itself:
 * <ul>
 *   <li>Query: one console command, answered as a result set (RowDescription of text columns, DataRows,
 *       CommandComplete, ReadyForQuery) or an ErrorResponse, then ReadyForQuery 'I': the console has no
 *       transactions;</li>
 *   <li>the extended protocol (Parse, Bind, Describe, Execute, Close, Sync, Flush), as drivers use it by
 *       default (pgjdbc, pgx): statements and portals are kept by {@link ConsoleStatements}, answers are
 *       sent at Sync or Flush as PostgreSQL sends them, and after an error everything is ignored until Sync,
 *       as PostgreSQL does after an error in a batch;</li>
 *   <li>FunctionCall: an error (0A000), then ReadyForQuery;</li>
 *   <li>Terminate closes the session.</li>
 * </ul>
 * A command may complete on another thread; while it runs the client is not read and frames already read
 * wait, so answers keep their order.
 */
final class ConsolePhase {

    private static final Logger log = LoggerFactory.getLogger(ConsolePhase.class);

    private final PgSession session;
    private final ConsoleService console;
    /** A command is running: the session queues what the client sends, and does not read it. */
    private boolean busy;
    /** An extended-protocol message was answered with an error: ignore everything until Sync. */
    private boolean skippingToSync;
    private final ConsoleStatements statements = new ConsoleStatements();

    ConsolePhase(PgSession session, ConsoleService console) {
        this.session = session;
        this.console = console;
    }

    /** The server accepted the login: serve the console to an admin, refuse anyone else (42501). */
    void loggedIn(ByteBuf readyForQuery) {
        String role = session.info.user();
        if (!console.admits(role)) {
            readyForQuery.release();
            log.info("admin console refused to {}: role not in admin.users", session.info);
            session.sendFatalAndClose(PgErrors.consoleDenied(role));
            return;
        }
        session.consoleStarted();
        session.client.writeAndFlush(readyForQuery); // the server's own, 'I': ready, outside a transaction
        log.info("admin console opened by {}", session.info);
    }

    boolean busy() {
        return busy;
    }

    /** A frame with nothing held before it: the session queues what comes while a command runs. */
    void frame(ByteBuf frame) {
        handle(frame);
    }

    private void handle(ByteBuf frame) {
        byte type = frame.getByte(frame.readerIndex());
        try {
            if (type == Sync.TYPE) {
                skippingToSync = false;
                statements.synced();
                // A Sync has no body; PostgreSQL answers one that has with an error, and is ready again.
                write(frame.readableBytes() > 5 ? List.of(PgErrors.invalidMessageFormat(), ready()) : List.of(ready()));
                flush();
            } else if (type == Terminate.TYPE) {
                session.sessionEndExpected();
                session.close();
            } else if (!skippingToSync || !answeredByStep(type)) {
                step(type, frame); // after an error in a batch, as in PostgreSQL, only an unknown type still counts
            }
        } catch (MalformedMessageException e) {
            session.protocolViolation(e.getMessage());
        } catch (StepFailed e) {
            batchFailed(e.error());
        } finally {
            frame.release();
        }
    }

    private void step(byte type, ByteBuf frame) throws StepFailed {
        switch (type) {
            case Query.TYPE -> {
                if (Query.hasBytesAfterText(frame)) {
                    write(List.of(PgErrors.invalidMessageFormat(), ready()));
                    flush();
                } else {
                    simpleQuery(Query.decode(frame).sql());
                }
            }
            case Parse.TYPE -> {
                statements.parse(Parse.decode(frame));
                write(List.of(BodilessMessage.PARSE_COMPLETE));
            }
            case Bind.TYPE -> {
                statements.bind(BoundPortal.decode(frame));
                write(List.of(BindComplete.INSTANCE));
            }
            case Describe.TYPE -> describe(Describe.decode(frame));
            case Execute.TYPE -> execute(Execute.decode(frame));
            case Close.TYPE -> {
                Close close = Close.decode(frame);
                statements.close(close.target(), close.name());
                write(List.of(BodilessMessage.CLOSE_COMPLETE));
            }
            case Flush.TYPE -> flush();
            // CopyData, CopyDone, CopyFail outside COPY: ignored, as PostgreSQL ignores them (a client may
            // still be sending a COPY's data after the statement that started it failed).
            case FrontendType.COPY_DATA, CopyDone.TYPE, CopyFail.TYPE -> { }
            case FrontendType.FUNCTION_CALL -> { // ends in its own ReadyForQuery
                write(List.of(PgErrors.consoleHasNoFunctions(), ready()));
                flush();
            }
            default -> session.protocolViolation("unknown message type '" + PgWire.printableType(type) + "'");
        }
    }

    /** The message types {@link #step} answers; any other is a protocol violation, even while skipping to Sync. */
    private static boolean answeredByStep(byte type) {
        return switch (type) {
            case Query.TYPE, Parse.TYPE, Bind.TYPE, Describe.TYPE, Execute.TYPE, Close.TYPE, Flush.TYPE,
                    FrontendType.FUNCTION_CALL -> true;
            default -> false;
        };
    }

    private void simpleQuery(String sql) {
        statements.simpleQuery();
        if (ConsoleStatements.isEmptyQuery(sql)) {
            write(List.of(EmptyQueryResponse.INSTANCE, ready()));
            flush();
            return;
        }
        run(sql, result -> {
            List<BackendMessage> answer = new ArrayList<>();
            result.notices().forEach(notice -> answer.add(PgErrors.consoleNotice(notice)));
            result.table().ifPresent(table -> rows(table, answer));
            answer.add(new CommandComplete(result.tag()));
            answer.add(ready());
            write(answer);
            flush();
        }, error -> {
            write(List.of(error, ready()));
            flush();
        });
    }

    /**
     * Describe: a command that returns rows runs to tell its columns (those commands change nothing); a
     * portal keeps that run's result for its Execute, so the rows match the description.
     */
    private void describe(Describe describe) throws StepFailed {
        if (describe.target() == StatementOrPortal.STATEMENT) {
            Prepared statement = statements.statement(describe.name());
            if (!statement.returnsRows()) {
                write(List.of(ParameterDescription.NONE, BodilessMessage.NO_DATA));
                return;
            }
            run(statement.sql(), result -> write(List.of(ParameterDescription.NONE, result.table()
                    .<BackendMessage>map(table -> RowDescription.ofText(table.columns()))
                    .orElse(BodilessMessage.NO_DATA))), this::batchFailed);
            return;
        }
        Portal portal = statements.portal(describe.name());
        afterRun(portal, portal.statement().returnsRows(), () -> write(List.of(portal.describe())));
    }

    private void execute(Execute execute) throws StepFailed {
        Portal portal = statements.portal(execute.portal());
        afterRun(portal, true, () -> write(portal.execute(execute.maxRows())));
    }

    /** Answers for a portal, after running its command if {@code runFirst} and it has not run yet. */
    private void afterRun(Portal portal, boolean runFirst, PortalAnswer answer) throws StepFailed {
        if (runFirst && portal.needsRun()) {
            run(portal.statement().sql(), result -> {
                portal.ran(result);
                answer.send();
            }, this::batchFailed);
        } else {
            answer.send();
        }
    }

    /** An error in an extended-protocol batch: sent at once, then everything up to the Sync is skipped. */
    private void batchFailed(ErrorResponse error) {
        skippingToSync = true;
        write(List.of(error));
        flush();
    }

    /** A portal's answer; may fail the step as a batch step fails. */
    @FunctionalInterface
    private interface PortalAnswer {
        void send() throws StepFailed;
    }

    /** What to do with a command's result; may fail the step as a batch step fails. */
    @FunctionalInterface
    private interface Answer {
        void accept(ConsoleResult result) throws StepFailed;
    }

    /**
     * Runs a command, which may complete on another thread; until it has, the client is not read and
     * frames already read wait, so answers keep their order.
     */
    private void run(String sql, Answer answer, Consumer<ErrorResponse> failed) {
        busy = true;
        console.execute(sql, session.info).whenComplete((result, failure) ->
                session.client.eventLoop().execute(() -> answered(result, failure, answer, failed)));
    }

    private void answered(ConsoleResult result, Throwable failure, Answer answer, Consumer<ErrorResponse> failed) {
        busy = false;
        if (session.state != PgSession.State.CONSOLE) {
            return;
        }
        Throwable cause = failure instanceof CompletionException wrapped && wrapped.getCause() != null
                ? wrapped.getCause() : failure;
        try {
            if (cause instanceof ConsoleException refused) {
                failed.accept(PgErrors.consoleError(refused));
            } else if (cause != null) {
                log.error("admin console command of {} failed", session.info, cause);
                failed.accept(PgErrors.consoleFailed(cause));
            } else {
                answer.accept(result);
            }
        } catch (StepFailed e) {
            failed.accept(e.error());
        }
        session.replayHeld();
        session.readClientIfPossible();
    }

    private static void rows(ResultTable table, List<BackendMessage> answer) {
        answer.add(RowDescription.ofText(table.columns()));
        table.rows().forEach(row -> answer.add(new DataRow(row)));
    }

    private static ReadyForQuery ready() {
        return new ReadyForQuery(TransactionStatus.IDLE);
    }

    /** Queues answers; they leave at the next {@link #flush}, at a Sync, a Flush or an error, as PostgreSQL's do. */
    private void write(List<? extends BackendMessage> messages) {
        ByteBuf out = session.client.alloc().buffer();
        messages.forEach(message -> message.encode(out));
        session.client.write(out, session.client.voidPromise());
    }

    private void flush() {
        session.client.flush();
    }
}

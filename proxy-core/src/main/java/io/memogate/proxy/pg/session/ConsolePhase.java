package io.memogate.proxy.pg.session;

import io.memogate.proxy.admin.ConsoleException;
import io.memogate.proxy.admin.ConsoleResult;
import io.memogate.proxy.admin.ConsoleService;
import io.memogate.proxy.admin.ResultTable;
import io.memogate.proxy.pg.message.MalformedMessageException;
import io.memogate.proxy.pg.message.backend.BackendMessage;
import io.memogate.proxy.pg.message.backend.CommandComplete;
import io.memogate.proxy.pg.message.backend.DataRow;
import io.memogate.proxy.pg.message.backend.EmptyQueryResponse;
import io.memogate.proxy.pg.message.backend.PgErrors;
import io.memogate.proxy.pg.message.backend.ReadyForQuery;
import io.memogate.proxy.pg.message.backend.ReadyForQuery.TransactionStatus;
import io.memogate.proxy.pg.message.backend.RowDescription;
import io.memogate.proxy.pg.message.frontend.Query;
import io.netty.buffer.ByteBuf;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
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
 *   <li>the extended protocol (Parse, Bind, Describe, Execute, Close): one 0A000 error, then everything
 *       is ignored until Sync, which gets ReadyForQuery, as PostgreSQL does after an error in a batch;</li>
 *   <li>Terminate closes the session.</li>
 * </ul>
 * A command may complete on another thread; while it runs the client is not read and frames already read
 * wait, so answers keep their order.
 */
final class ConsolePhase {

    private static final Logger log = LoggerFactory.getLogger(ConsolePhase.class);

    private final PgSession session;
    private final ConsoleService console;
    private final ArrayDeque<ByteBuf> waiting = new ArrayDeque<>();
    /** A command is running: frames queue in {@link #waiting}, and the client is not read. */
    private boolean busy;
    /** An extended-protocol message was answered with an error: ignore everything until Sync. */
    private boolean skippingToSync;

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

    void frame(ByteBuf frame) {
        if (busy) {
            waiting.add(frame);
        } else {
            handle(frame);
        }
    }

    private void handle(ByteBuf frame) {
        byte type = frame.getByte(frame.readerIndex());
        String sql = null;
        try {
            if (type == Query.TYPE) {
                sql = Query.decode(frame).sql();
            }
        } catch (MalformedMessageException e) {
            frame.release();
            session.protocolViolation(e.getMessage());
            return;
        }
        frame.release();
        switch (type) {
            case Query.TYPE -> {
                if (!skippingToSync) {
                    run(sql);
                }
            }
            case 'S' -> { // Sync ends the batch, answered or skipped
                skippingToSync = false;
                write(List.of(ready()));
            }
            case 'P', 'B', 'D', 'E', 'C' -> {
                if (!skippingToSync) {
                    skippingToSync = true;
                    write(List.of(PgErrors.consoleNeedsSimpleQueries()));
                }
            }
            case 'H' -> { } // Flush: everything is written at once anyway
            case 'F' -> write(List.of(PgErrors.consoleNeedsSimpleQueries(), ready())); // FunctionCall ends in its own ReadyForQuery
            case 'X' -> {
                session.sessionEndExpected();
                session.close();
            }
            default -> session.protocolViolation("unknown message type '" + PgSession.printable(type) + "'");
        }
    }

    private void run(String sql) {
        if (sql.chars().allMatch(c -> Character.isWhitespace(c) || c == ';')) {
            write(List.of(EmptyQueryResponse.INSTANCE, ready()));
            return;
        }
        busy = true;
        console.execute(sql, session.info).whenComplete((result, failure) ->
                session.client.eventLoop().execute(() -> answered(result, failure)));
    }

    private void answered(ConsoleResult result, Throwable failure) {
        busy = false;
        if (session.state != PgSession.State.CONSOLE) {
            return;
        }
        Throwable cause = failure instanceof CompletionException wrapped && wrapped.getCause() != null
                ? wrapped.getCause() : failure;
        List<BackendMessage> answer = new ArrayList<>();
        if (cause instanceof ConsoleException refused) {
            answer.add(PgErrors.consoleError(refused));
        } else if (cause != null) {
            log.error("admin console command of {} failed", session.info, cause);
            answer.add(PgErrors.consoleFailed(cause));
        } else {
            result.notices().forEach(notice -> answer.add(PgErrors.consoleNotice(notice)));
            result.table().ifPresent(table -> rows(table, answer));
            answer.add(new CommandComplete(result.tag()));
        }
        answer.add(ready());
        write(answer);
        while (!busy && !waiting.isEmpty() && session.state == PgSession.State.CONSOLE) {
            handle(waiting.poll());
        }
        session.readClientIfPossible();
    }

    private static void rows(ResultTable table, List<BackendMessage> answer) {
        answer.add(RowDescription.ofText(table.columns()));
        table.rows().forEach(row -> answer.add(new DataRow(row)));
    }

    private static ReadyForQuery ready() {
        return new ReadyForQuery(TransactionStatus.IDLE);
    }

    private void write(List<? extends BackendMessage> messages) {
        ByteBuf out = session.client.alloc().buffer();
        messages.forEach(message -> message.encode(out));
        session.client.writeAndFlush(out, session.client.voidPromise());
    }

    /** The session ended: frames still waiting are dropped. */
    void closed() {
        while (!waiting.isEmpty()) {
            ReferenceCountUtil.release(waiting.poll());
        }
    }
}

package io.memogate.proxy.mysql.session;

import io.memogate.proxy.admin.ConsoleException;
import io.memogate.proxy.admin.ConsoleResult;
import io.memogate.proxy.admin.ConsoleService;
import io.memogate.proxy.config.AdminConfig;
import io.memogate.proxy.mysql.codec.MySqlPackets;
import io.memogate.proxy.mysql.message.Capabilities;
import io.memogate.proxy.mysql.message.Commands;
import io.memogate.proxy.mysql.message.ErrPacket;
import io.memogate.proxy.mysql.message.HandshakeResponse;
import io.memogate.proxy.mysql.message.MySqlErrors;
import io.memogate.proxy.mysql.message.TextResultSet;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A MySQL session to the admin console, the schema "memogate". Its login goes to the default backend's server
 * like any other, with an empty schema (the account needs none there; admin.authDatabase names a PostgreSQL
 * database), and the proxy decides nothing about it; at the server's OK the user is checked against
 * admin.users (1044 for anyone else, as the server refuses a schema), the server connection is ended with
 * COM_QUIT, and from then on the proxy answers the session itself:
 * <ul>
 *   <li>COM_QUERY: one console command, answered as a text result set of VAR_STRING columns, or an OK (its
 *       message the command's notices) for a command without rows, or an ERR; the connection goes on;</li>
 *   <li>COM_PING, COM_RESET_CONNECTION, COM_INIT_DB of "memogate": OK; COM_QUIT: the end;</li>
 *   <li>anything else (prepared statements, another schema, ...): an ERR saying to send plain queries.</li>
 * </ul>
 * A command may complete on another thread; while it runs the client is not read and packets already read
 * wait, so answers keep their order. Runs on the session's event loop.
 */
final class MySqlConsole {

    private static final Logger log = LoggerFactory.getLogger(MySqlConsole.class);

    private static final int COM_INIT_DB = 0x02;
    private static final int COM_PING = 0x0E;
    private static final int COM_SET_OPTION = 0x1B;

    private final MySqlSession session;
    private final ConsoleService console;
    private final TextResultSet.Shape shape;
    private final ClientPreamble preamble = new ClientPreamble();
    /** A command is running: the session holds what the client sends, and does not read it. */
    private boolean busy;

    private MySqlConsole(MySqlSession session, ConsoleService console, HandshakeResponse response, ByteBuf frame) {
        this.session = session;
        this.console = console;
        this.shape = new TextResultSet.Shape((response.capabilities() & Capabilities.CLIENT_DEPRECATE_EOF) != 0,
                (HandshakeResponse.mariaDbCapabilities(frame) & Capabilities.MARIADB_EXTENDED_METADATA) != 0);
    }

    /**
     * The client's HandshakeResponse in {@code frame}: when it names the console's schema and the proxy serves a
     * console, the session becomes a console login and the frame to relay is the response with an empty schema;
     * otherwise {@code frame} itself. Owns {@code frame}.
     */
    static ByteBuf login(MySqlSession session, ByteBuf frame, HandshakeResponse response) {
        if (session.services.console().isEmpty() || !response.database().equals(AdminConfig.CONSOLE_DATABASE)) {
            return frame;
        }
        try {
            session.consoleLogin(new MySqlConsole(session, session.services.console().get(), response, frame));
            return HandshakeResponse.withoutDatabase(frame, frame.alloc());
        } finally {
            frame.release();
        }
    }

    /** The server accepted the login ({@code ok}, its sequence id as the client counts): serve or refuse. */
    void loggedIn(ByteBuf ok) {
        String user = session.info.user();
        if (!console.admits(user)) {
            int sequenceId = MySqlPackets.sequenceId(ok);
            ok.release();
            log.info("admin console refused to {}: user not in admin.users", session.info);
            session.sendErrorAndClose(MySqlErrors.consoleDenied(user), sequenceId);
            return;
        }
        session.consoleStarted();
        session.toClient(ok); // the server's own: its status flags, its session state
        session.client.flush();
        log.info("admin console opened by {}", session.info);
    }

    boolean busy() {
        return busy;
    }

    /** A client command, owned here. */
    void command(ByteBuf frame) {
        int answerId = MySqlPackets.sequenceId(frame) + 1;
        ByteBuf payload = MySqlPackets.payload(frame);
        int command = payload.isReadable() ? payload.getUnsignedByte(0) : -1;
        String text = command == Commands.COM_QUERY || command == COM_INIT_DB
                ? payload.toString(1, payload.readableBytes() - 1, StandardCharsets.UTF_8) : "";
        frame.release();
        switch (command) {
            case Commands.COM_QUIT -> session.close();
            case COM_PING, Commands.COM_RESET_CONNECTION, COM_SET_OPTION -> ok("", answerId);
            case COM_INIT_DB -> {
                if (text.equals(AdminConfig.CONSOLE_DATABASE)) {
                    ok("", answerId);
                } else {
                    error(MySqlErrors.consoleUnsupported("changing to another schema ('" + text + "'); connect to it"
                            + " without the console"), answerId);
                }
            }
            case Commands.COM_QUERY -> query(text, answerId);
            // No answer is due to these; the statement they name was never prepared.
            case Commands.COM_STMT_CLOSE, Commands.COM_STMT_SEND_LONG_DATA -> { }
            case Commands.COM_STMT_PREPARE, Commands.COM_STMT_EXECUTE ->
                    error(MySqlErrors.consoleUnsupported("prepared statements (useServerPrepStmts, COM_STMT_PREPARE)"),
                            answerId);
            default -> error(MySqlErrors.consoleUnsupported("the command 0x" + Integer.toHexString(command)), answerId);
        }
    }

    private void query(String text, int answerId) {
        var local = preamble.answer(text);
        if (local.isPresent()) {
            answer(local.get(), answerId);
            return;
        }
        busy = true;
        console.execute(text, session.info).whenComplete((result, failure) ->
                session.client.eventLoop().execute(() -> answered(result, failure, answerId)));
    }

    private void answered(ConsoleResult result, Throwable failure, int answerId) {
        busy = false;
        if (session.state != MySqlSession.State.CONSOLE) {
            return;
        }
        Throwable cause = failure instanceof CompletionException wrapped && wrapped.getCause() != null
                ? wrapped.getCause() : failure;
        if (cause instanceof ConsoleException refused) {
            error(MySqlErrors.consoleError(refused), answerId);
        } else if (cause != null) {
            log.error("admin console command of {} failed", session.info, cause);
            error(MySqlErrors.consoleFailed(cause), answerId);
        } else {
            answer(result, answerId);
        }
        session.replayHeld();
    }

    private void answer(ConsoleResult result, int answerId) {
        if (result.table().isPresent()) {
            ByteBuf out = session.client.alloc().buffer();
            TextResultSet.encode(result.table().get(), shape, answerId, out);
            send(out);
        } else {
            ok(String.join("\n", result.notices()), answerId);
        }
    }

    private void ok(String info, int answerId) {
        ByteBuf out = session.client.alloc().buffer();
        TextResultSet.ok(info, answerId, out);
        send(out);
    }

    private void error(ErrPacket error, int answerId) {
        ByteBuf out = session.client.alloc().buffer();
        error.encode(out, answerId & 0xFF);
        send(out);
    }

    private void send(ByteBuf out) {
        session.toClient(out);
        session.client.flush();
    }
}

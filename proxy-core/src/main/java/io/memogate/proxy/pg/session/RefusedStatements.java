package io.memogate.proxy.pg.session;

import io.memogate.proxy.pg.message.backend.ErrorResponse;
import io.memogate.proxy.pg.message.frontend.Execute;
import io.memogate.proxy.pg.message.frontend.FrontendMessage;
import io.memogate.proxy.pg.message.frontend.Query;
import java.util.ArrayDeque;

/**
 * Statements the proxy refused (gateway rejection, or a cancel while queued) and the errors to show
 * for them. Each refused statement is replaced, towards the server, by a message that names a portal that
 * cannot exist ({@value #PORTAL_PREFIX}n): a Bind by an Execute of it, a simple Query by a Query that FETCHes
 * from it. The server fails it with SQLSTATE 34000 naming the portal, and that error is swapped for the
 * refusal on its way back. Failing on the server, rather than answering locally, leaves the server's
 * transaction state exactly as a failed statement leaves it; and where the server skips messages to a Sync
 * after an error in an extended batch, it skips the stand-in as it would have skipped the refused statement.
 *
 * <p>If an earlier message of the same batch fails first, the server skips the stand-in (and PostgreSQL
 * would never have run the refused statement either); its entry is dropped when a later stand-in's
 * error arrives or when nothing is in flight any more. Not thread-safe: used on the session's event loop.
 */
final class RefusedStatements {

    static final String PORTAL_PREFIX = "memogate_refused_";
    private static final String INVALID_CURSOR_NAME = "34000";

    private record Refusal(long number, ErrorResponse error) {}

    private final ArrayDeque<Refusal> waiting = new ArrayDeque<>();
    private long next;

    /**
     * The message to send the server instead of the refused statement: for a simple Query a Query of its own,
     * answered with ReadyForQuery as the refused one would have been (an Execute would need a Sync of the
     * proxy's, which would end a skip to Sync the client's batch is in), for a Bind an Execute.
     */
    FrontendMessage standIn(ErrorResponse error, boolean simpleQuery) {
        long number = ++next;
        waiting.addLast(new Refusal(number, error));
        String portal = PORTAL_PREFIX + number;
        return simpleQuery ? new Query("fetch " + portal) : new Execute(portal, 0);
    }

    /** The refusal to send the client instead of {@code error}, or null when it is the server's own. */
    ErrorResponse replacementFor(ErrorResponse error) {
        if (waiting.isEmpty() || !INVALID_CURSOR_NAME.equals(error.sqlState())) {
            return null;
        }
        String message = error.message();
        int at = message == null ? -1 : message.indexOf(PORTAL_PREFIX);
        if (at < 0) {
            return null;
        }
        long number = leadingNumber(message, at + PORTAL_PREFIX.length());
        while (!waiting.isEmpty()) {
            Refusal refusal = waiting.pollFirst();
            if (refusal.number() == number) {
                return refusal.error();
            }
            // An older stand-in the server skipped after an earlier error: nothing to show for it.
        }
        return null;
    }

    /** Every answer is in: stand-ins not answered by now were skipped by the server. */
    void nothingInFlight() {
        waiting.clear();
    }

    private static long leadingNumber(String text, int from) {
        long value = 0;
        int i = from;
        while (i < text.length() && Character.isDigit(text.charAt(i))) {
            value = value * 10 + (text.charAt(i++) - '0');
        }
        return i == from ? -1 : value;
    }
}

package io.memogate.proxy.pg.session;

import io.memogate.proxy.pg.message.backend.ReadyForQuery.TransactionStatus;

/** A session's state in the words of pg_stat_activity.state, for the admin console's SHOW CLIENTS. */
final class SessionStates {

    private SessionStates() {
    }

    /**
     * @param readingText a long statement text is being read off the event loop, before it goes to admission
     * @param holding a statement waits for admission (or for its text to be read)
     * @param idle nothing is in flight to the server
     * @param status the transaction status of the last ReadyForQuery
     */
    static String describe(PgSession.State state, boolean readingText, boolean holding, boolean idle,
            TransactionStatus status) {
        return switch (state) {
            case STARTUP, CONNECTING, AUTHENTICATING -> "login";
            case CONSOLE -> "console";
            case RECYCLING -> "recycling server connection";
            case CLOSED -> "closed";
            case READY -> {
                if (readingText) {
                    yield "reading query text"; // in no queue yet: a cancel withdraws it once read
                }
                if (holding) {
                    yield "waiting for admission";
                }
                if (!idle) {
                    yield "active";
                }
                yield switch (status) {
                    case IDLE -> "idle";
                    case IN_TRANSACTION -> "idle in transaction";
                    case FAILED -> "idle in transaction (aborted)";
                };
            }
        };
    }
}

package io.memogate.proxy.pg.session;

import io.memogate.proxy.pg.message.backend.ReadyForQuery.TransactionStatus;

/** A session's state in the words of pg_stat_activity.state, for the admin console's SHOW CLIENTS. */
final class SessionStates {

    private SessionStates() {
    }

    /**
     * @param holding a statement waits for admission
     * @param idle nothing is in flight to the server
     * @param status the transaction status of the last ReadyForQuery
     */
    static String describe(PgSession.State state, boolean holding, boolean idle, TransactionStatus status) {
        return switch (state) {
            case STARTUP, CONNECTING, AUTHENTICATING -> "login";
            case CONSOLE -> "console";
            case RECYCLING -> "recycling server connection";
            case CLOSED -> "closed";
            case READY -> {
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

package io.memogate.broker.probe.postgres;

import java.sql.SQLException;

/** pgjdbc's failures in words an operator can act on. */
public final class JdbcFailures {

    private JdbcFailures() {
    }

    /**
     * pgjdbc's message, and its cause's when it has one: a socket factory's failure (a Unix socket that is
     * not there, or not open to this user) it reports only as "The connection attempt failed."
     */
    public static String message(SQLException e) {
        Throwable cause = e.getCause();
        if (cause == null || cause.getMessage() == null || e.getMessage().contains(cause.getMessage())) {
            return e.getMessage();
        }
        return e.getMessage() + " (" + cause.getMessage() + ")";
    }
}

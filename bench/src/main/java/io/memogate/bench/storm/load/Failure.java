package io.memogate.bench.storm.load;

import java.sql.SQLException;
import java.sql.SQLWarning;

/**
 * What a failed attempt told the client.
 *
 * @param message the first line of the driver's message, for the report's breakdown of "other"
 */
public record Failure(ErrorKind kind, String sqlState, String message) {

    /**
     * @param warnings what the server sent before the failure, or null. Since PostgreSQL 14 a backend ended
     *                 because another one crashed sends its 57P02 as a WARNING and then closes the connection,
     *                 so the driver's error is the same broken socket (08006) as a killed backend's; the warning
     *                 is what tells the two apart.
     */
    public static Failure of(SQLException e, SQLWarning warnings) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().lines().findFirst().orElse("");
        for (SQLWarning w = warnings; w != null; w = w.getNextWarning()) {
            if (ErrorKind.of(w.getSQLState()) == ErrorKind.RESTART) {
                return new Failure(ErrorKind.RESTART, w.getSQLState(), w.getMessage().lines().findFirst().orElse(""));
            }
        }
        return new Failure(ErrorKind.of(e.getSQLState()), e.getSQLState(), message);
    }
}

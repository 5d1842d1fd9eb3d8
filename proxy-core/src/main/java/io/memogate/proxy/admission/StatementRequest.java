package io.memogate.proxy.admission;

import io.memogate.estimator.PreparedStatementTexts;
import io.memogate.estimator.dialect.DialectSettings;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One statement asking for admission.
 *
 * @param sql its SQL text (for a Bind, the text of the prepared statement it binds; empty when the
 *     proxy never saw that statement prepared)
 * @param point where it was caught
 * @param session who sent it
 * @param serverConnection the server connection it will run on (PostgreSQL: the backend's process id),
 *     whose retained memory the byte budget accounts for
 * @param settings the planner settings in force for this session, of its server's dialect (opaque here: the
 *     estimator of that dialect reads them); for PostgreSQL the server's defaults with the
 *     session's own SET / RESET and startup options applied
 * @param prepared the statements the session PREPAREd in SQL, for its EXECUTE
 * @param settingsWithLogin asked on the session's thread, during {@code admit}: the session's settings as they
 *     are now, with the layer of its login settings still to fill in (PostgreSQL: ALTER ROLE / ALTER DATABASE
 *     ... SET), for a statement that waits for its database's first catalog read, which brings that layer
 */
public record StatementRequest(String sql, AdmissionPoint point, SessionInfo session, long serverConnection,
                               DialectSettings settings, PreparedStatementTexts prepared,
                               Supplier<Function<LoginSettings, DialectSettings>> settingsWithLogin) {

    /** Settings that no login settings read later change. */
    public StatementRequest(String sql, AdmissionPoint point, SessionInfo session, long serverConnection,
            DialectSettings settings, PreparedStatementTexts prepared) {
        this(sql, point, session, serverConnection, settings, prepared, () -> login -> settings);
    }

    public StatementRequest(String sql, AdmissionPoint point, SessionInfo session, long serverConnection,
            DialectSettings settings) {
        this(sql, point, session, serverConnection, settings, PreparedStatementTexts.NONE);
    }

    /** This statement under other planner settings. */
    public StatementRequest withSettings(DialectSettings other) {
        return new StatementRequest(sql, point, session, serverConnection, other, prepared, settingsWithLogin);
    }
}

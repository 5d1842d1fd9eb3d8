package io.memogate.proxy.admission;

import io.memogate.estimator.PreparedStatementTexts;
import io.memogate.estimator.planner.PlannerSettings;

/**
 * One statement asking for admission.
 *
 * @param sql its SQL text (for a Bind, the text of the prepared statement it binds; empty when the
 *     proxy never saw that statement prepared)
 * @param point where it was caught
 * @param session who sent it
 * @param serverConnection the server connection it will run on (PostgreSQL: the backend's process id),
 *     whose retained memory the byte budget accounts for
 * @param settings the planner settings in force for this session: the server's defaults with the
 *     session's own SET / RESET and startup options applied
 * @param prepared the statements the session PREPAREd in SQL, for its EXECUTE
 */
public record StatementRequest(String sql, AdmissionPoint point, SessionInfo session, long serverConnection,
                               PlannerSettings settings, PreparedStatementTexts prepared) {

    public StatementRequest(String sql, AdmissionPoint point, SessionInfo session, long serverConnection,
            PlannerSettings settings) {
        this(sql, point, session, serverConnection, settings, PreparedStatementTexts.NONE);
    }
}

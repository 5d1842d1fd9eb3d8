package io.memogate.proxy.admission;

/**
 * One statement asking for admission: its SQL text (for a Bind, the text of the prepared statement
 * it binds; empty when the proxy never saw that statement prepared), where it was caught, and who
 * sent it.
 */
public record StatementRequest(String sql, AdmissionPoint point, SessionInfo session) {}

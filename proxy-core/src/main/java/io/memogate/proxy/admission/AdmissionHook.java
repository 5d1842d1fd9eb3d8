package io.memogate.proxy.admission;

import java.util.concurrent.CompletionStage;

/**
 * Where a session asks whether a statement may go to the server now. Protocol-neutral: each protocol
 * calls it at its admission points (PostgreSQL: simple Query, and Bind, where the server plans) and
 * reports the release signals it sees to the returned {@link AdmittedStatement}.
 *
 * <p>The stage may complete later, on any thread: the session holds the statement (and everything the
 * client sends after it, reading no more until it is admitted) and resumes on its own event loop.
 * Implementations must never block the calling thread.
 */
@FunctionalInterface
public interface AdmissionHook {

    CompletionStage<AdmittedStatement> admit(StatementRequest request);
}

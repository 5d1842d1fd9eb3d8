package io.memogate.proxy.admission;

import java.util.List;

/**
 * Where a session asks whether a statement may go to the server now. Protocol-neutral: each protocol
 * calls it at its admission points (PostgreSQL: simple Query, and Bind, where the server plans) and
 * reports the release signals it sees to the {@link AdmittedStatement} the decision yields.
 *
 * <p>The decision may complete later, on any thread: the session holds the statement (and everything
 * the client sends after it, reading no more until it is decided) and resumes on its own event loop.
 * Implementations must never block the calling thread.
 */
@FunctionalInterface
public interface AdmissionHook {

    Admission admit(StatementRequest request);

    /**
     * {@link #admit(StatementRequest)}, for a statement the session can run under tighter planner settings
     * instead, for it alone: {@code ladder}, least restrictive first. The decision says which it chose
     * ({@link Admission#degraded()}); the default hook chooses none.
     */
    default Admission admit(StatementRequest request, List<Degradation> ladder) {
        return admit(request);
    }

    /**
     * Whether a statement of {@code session} may be admitted under tighter settings at all: false spares the session
     * what it does only to offer them ({@link #admit(StatementRequest, List)}'s ladder). The default hook degrades
     * nothing.
     */
    default boolean degrades(SessionInfo session) {
        return false;
    }

    /**
     * Whether {@link #admit} looks at the request. A hook that admits every statement at once whatever
     * it says returns false, and sessions then skip everything they do only to describe the statement:
     * decoding its text, following its SETs and PREPAREs, building the request. Fixed for the hook's
     * life; the default, true, is always correct.
     */
    default boolean readsStatements() {
        return true;
    }

    /**
     * What admission knows of {@code database} besides a statement's text, as an object that is replaced when
     * that changes (its catalog read again, with a new view or routine): a session that remembers a prepared
     * statement as one needing no admission remembers it under this, and asks again once it is another. The
     * default, a constant, is for hooks whose verdicts depend on the text alone.
     */
    default Object catalogVersion(String database) {
        return AdmissionHook.class;
    }

    /**
     * A server connection ended (PostgreSQL: the backend process exits), giving back the memory it kept;
     * {@code serverConnection} is the id {@link StatementRequest#serverConnection()} carried.
     */
    default void serverConnectionClosed(long serverConnection) {}

    /**
     * The memory a server connection is counted as keeping after its statements (the ledger's figure);
     * 0 when it is not known, as without gateways. A session recycles its connection above a limit.
     */
    default long retainedBytes(long serverConnection) {
        return 0;
    }
}

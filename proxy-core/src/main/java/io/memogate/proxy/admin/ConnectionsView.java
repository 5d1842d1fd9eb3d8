package io.memogate.proxy.admin;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/** What the console sees of the proxy's connections: the server implements it over its open sessions. */
public interface ConnectionsView {

    /**
     * A snapshot of every open session, oldest first. Completes once each session has described itself
     * on its own thread, so it may complete on any thread.
     */
    CompletionStage<List<ClientView>> clients();

    /**
     * The console's CANCEL: cancels the statement of the session whose server process is {@code serverPid}
     * (withdrawn from its queue if it waits for admission, else a cancel request to the server).
     *
     * @param backend the backend that session is on; empty: any, provided only one session has that process
     * @param by who asked, as the logs name a session
     */
    CompletionStage<SessionCommandOutcome> cancel(int serverPid, Optional<String> backend, String by);

    /** The console's KILL: ends that session (FATAL 57P01 to its client), found as for {@link #cancel}. */
    CompletionStage<SessionCommandOutcome> terminate(int serverPid, Optional<String> backend, String by);

    /**
     * What CANCEL or KILL did, and the backends of the sessions it named. Only when it named exactly one
     * was anything done: server process ids are unique on one server only.
     *
     * @param done what was done to the one session named; empty when none or several were
     */
    record SessionCommandOutcome(Optional<String> done, List<String> backends) {}

    /** Connections to backend servers now open, including those still negotiating. */
    int serverConnectionCount();

    /** Server connections replaced by a new one since the start (recycle.retainedAbove). */
    long serverRecycleCount();
}

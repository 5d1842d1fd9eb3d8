package io.memogate.proxy.admin;

import java.util.List;
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
     * (withdrawn from its queue if it waits for admission, else a cancel request to the server). Completes
     * with what was done, one entry per session it applied to: none when no open session has that process.
     *
     * @param by who asked, as the logs name a session
     */
    CompletionStage<List<String>> cancel(int serverPid, String by);

    /** The console's KILL: ends that session (FATAL 57P01 to its client); what was done, as for {@link #cancel}. */
    CompletionStage<List<String>> terminate(int serverPid, String by);

    /** Connections to backend servers now open, including those still negotiating. */
    int serverConnectionCount();

    /** Server connections replaced by a new one since the start (recycle.retainedAbove). */
    long serverRecycleCount();
}

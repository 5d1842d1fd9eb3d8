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

    /** Connections to backend servers now open, including those still negotiating. */
    int serverConnectionCount();

    /** Server connections replaced by a new one since the start (recycle.retainedAbove). */
    long serverRecycleCount();
}

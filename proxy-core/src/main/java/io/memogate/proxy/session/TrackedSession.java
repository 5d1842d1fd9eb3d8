package io.memogate.proxy.session;

import io.memogate.proxy.admin.ClientView;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * A session as the server sees it, whatever its protocol: it describes itself to the admin console, takes
 * the operator's CANCEL and KILL, and ends when the proxy stops. Each answers on the session's own event
 * loop, so that only the session writes its state.
 */
public interface TrackedSession {

    /** What SHOW CLIENTS shows of it; completes on its event loop. */
    CompletionStage<ClientView> describe();

    /** {@code command} applied to this session if it names it: what was done; empty when it is another's. */
    CompletionStage<Optional<String>> operator(OperatorCommand command);

    /** Ends the session because the proxy stops, telling its client in its protocol's words. */
    void shutdown();
}

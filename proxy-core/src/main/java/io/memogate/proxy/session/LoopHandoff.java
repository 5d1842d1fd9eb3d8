package io.memogate.proxy.session;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands the answer of another thread (a statement text read, an admission decided) to the session's event loop.
 * A task there has no handler's exceptionCaught behind it: an unexpected failure would leave the client waiting
 * for an answer forever, so it ends the session with an internal error instead, as a failure in a handler does,
 * once the task's own clean-up has given back what the task still held (its frame unless it was handed on, see
 * {@link OwnedFrame}; the permits it was admitted with).
 */
public final class LoopHandoff {

    private static final Logger log = LoggerFactory.getLogger(LoopHandoff.class);

    private final SessionLoop session;

    public LoopHandoff(SessionLoop session) {
        this.session = session;
    }

    /**
     * Runs {@code task} on the session's event loop; if it throws, {@code failed} there, then the session ends.
     *
     * @param what the task, for the log and the client's error ("admission")
     */
    public void run(String what, Runnable task, Runnable failed) {
        session.eventLoop().execute(() -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                log.error("{} failed for a statement of {}", what, session, e);
                failed.run();
                session.failInternally(what + " failed: " + e);
            }
        });
    }
}

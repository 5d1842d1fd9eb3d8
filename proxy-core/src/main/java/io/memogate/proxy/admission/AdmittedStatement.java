package io.memogate.proxy.admission;

/**
 * A statement that was let through; it learns from the session's release signals when its
 * compilation is over. {@link #signal} is called on the session's event loop and must not block.
 */
@FunctionalInterface
public interface AdmittedStatement {

    /** Held nothing, so there is nothing to release: the admission of statements not gated. */
    AdmittedStatement UNGATED = signal -> {};

    void signal(ReleaseSignal signal);

    /**
     * True when the statement's planning goes on after BindComplete, while it runs (a DO block's queries, a
     * called routine's): the session then keeps it past BindComplete (telling it RUNNING there) and releases
     * it when its Execute completes, or at the end of its query cycle.
     */
    default boolean plannedWhileRunning() {
        return false;
    }
}

package io.memogate.proxy.session;

/** Told when a session starts and when it has ended, e.g. to count them and to drain on shutdown. */
public interface SessionListener {

    /** Returns false to refuse the session (too many clients); {@link #closed} follows either way. */
    boolean opened(TrackedSession session);

    void closed(TrackedSession session);
}

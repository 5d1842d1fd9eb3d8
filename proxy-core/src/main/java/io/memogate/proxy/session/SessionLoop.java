package io.memogate.proxy.session;

import io.netty.channel.EventLoop;

/**
 * What the core's parts of a session ({@link LoopHandoff}, {@link StatementAdmission}) need of the wing's
 * session they serve: the event loop its state lives on, whether it has ended, and how it ends when
 * something fails that nothing else catches.
 */
public interface SessionLoop {

    /** The loop that alone reads and writes the session's state. */
    EventLoop eventLoop();

    /** The session has ended: both legs are closing and nothing more is sent for it. */
    boolean ended();

    /** Tells the client of an internal error in its protocol's words (PostgreSQL: FATAL XX000), then ends. */
    void failInternally(String what);
}

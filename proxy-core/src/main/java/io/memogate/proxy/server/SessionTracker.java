package io.memogate.proxy.server;

import io.memogate.proxy.pg.session.PgSession;
import io.memogate.proxy.pg.session.SessionServices;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** The open sessions: enforces limits.maxClientConnections and lets shutdown wait for them to end. */
final class SessionTracker implements SessionServices.SessionListener {

    private final int limit;
    private final Set<PgSession> open = new HashSet<>();

    SessionTracker(int limit) {
        this.limit = limit;
    }

    @Override
    public synchronized boolean opened(PgSession session) {
        if (open.size() >= limit) {
            return false;
        }
        open.add(session);
        return true;
    }

    @Override
    public synchronized void closed(PgSession session) {
        if (open.remove(session) && open.isEmpty()) {
            notifyAll();
        }
    }

    synchronized int count() {
        return open.size();
    }

    /** Waits until no session is open; false if some still are after the timeout. */
    synchronized boolean awaitNone(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!open.isEmpty()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            try {
                wait(Math.max(1, left / 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return open.isEmpty();
            }
        }
        return true;
    }

    void shutdownAll() {
        List<PgSession> remaining;
        synchronized (this) {
            remaining = List.copyOf(open);
        }
        remaining.forEach(PgSession::shutdown);
    }
}

package io.memogate.proxy.session;

import java.util.concurrent.atomic.AtomicLong;

/**
 * How often sessions' server connections were replaced (a wing replaces one whose process keeps too much
 * memory), over all sessions of a
 * proxy and its reloads: for the metrics, the admin console and the benchmarks. Thread-safe.
 */
public final class RecycleCounts {

    private final AtomicLong recycled = new AtomicLong();
    private final AtomicLong failedLogins = new AtomicLong();

    public void recycled() {
        recycled.incrementAndGet();
    }

    public void loginFailed() {
        failedLogins.incrementAndGet();
    }

    /** Server connections replaced by a new one since the proxy started. */
    public long recycledCount() {
        return recycled.get();
    }

    /** Replacement logins that failed (the session kept its connection and stopped recycling). */
    public long failedLoginCount() {
        return failedLogins.get();
    }
}

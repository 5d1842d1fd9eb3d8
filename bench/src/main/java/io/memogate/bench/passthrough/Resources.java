package io.memogate.bench.passthrough;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Everything the benchmark started (server, proxies, their directories), closed in reverse order of
 * start, once, by whoever comes first: the benchmark at its end, or its shutdown hook on Ctrl-C or
 * SIGTERM (child processes do not die with the JVM, and PgBouncer runs as another user).
 */
final class Resources implements AutoCloseable {

    private final Deque<AutoCloseable> started = new ArrayDeque<>();
    private boolean closed; // guarded by this

    /** Takes ownership of {@code resource}; if the benchmark is already stopping, closes it at once. */
    synchronized <T extends AutoCloseable> T add(T resource) throws Exception {
        if (closed) {
            resource.close();
            throw new IllegalStateException("the benchmark is stopping");
        }
        started.push(resource);
        return resource;
    }

    /** Closes {@code resource} now, one this took, and forgets it: it is not closed again at the end. */
    synchronized void closeNow(AutoCloseable resource) throws Exception {
        if (started.remove(resource)) {
            resource.close();
        }
    }

    /** Closes everything, the last started first; every close is attempted, the failures reported together. */
    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        IOException failure = null;
        while (!started.isEmpty()) {
            AutoCloseable resource = started.pop();
            try {
                resource.close();
            } catch (Exception e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                if (failure == null) {
                    failure = new IOException("cannot stop everything the benchmark started; first failure: " + e, e);
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}

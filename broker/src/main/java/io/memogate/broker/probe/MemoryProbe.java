package io.memogate.broker.probe;

/**
 * Reads one server's memory state. One implementation per SQL dialect; the broker calls {@link #probe()}
 * from its single polling thread, never from a metrics scrape.
 *
 * <p>A probe that holds a connection keeps it between polls and reopens it after a failure;
 * {@link #close()} releases it. Tests may pass a lambda: closing it does nothing.
 */
@FunctionalInterface
public interface MemoryProbe extends AutoCloseable {

    /**
     * One complete reading of the server. Either every value in the snapshot was read from the server
     * (or the host) in this call, or the call throws: a probe never fills a gap with a guess.
     */
    MemorySnapshot probe() throws ProbeException;

    /** Releases the probe's connection; a later {@link #probe()} fails. Safe from any thread. */
    @Override
    default void close() {
    }
}

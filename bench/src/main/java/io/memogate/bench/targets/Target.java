package io.memogate.bench.targets;

import java.io.IOException;

/**
 * A running endpoint pgbench connects to on 127.0.0.1, reaching the {@link Backend}. Closing it stops
 * whatever was started for it and removes its files; closing twice does nothing more.
 */
public interface Target extends AutoCloseable {

    TargetKind kind();

    int port();

    /** One line for the report: what runs, which version, how it is configured. */
    String description();

    @Override
    void close() throws IOException;
}

package io.memogate.proxy.reload;

import io.memogate.proxy.config.MemogateConfig;
import java.util.Objects;

/**
 * The configuration in force: the one the proxy started with, then whatever a reload or the console's SET
 * made of it. Always a whole, valid {@link MemogateConfig}, swapped in one write, so a reader on any thread
 * sees one configuration or the next, never a mix. Only {@link ConfigReloader} swaps it.
 */
public final class CurrentConfig {

    private volatile MemogateConfig config;

    public CurrentConfig(MemogateConfig initial) {
        this.config = Objects.requireNonNull(initial, "initial");
    }

    public MemogateConfig get() {
        return config;
    }

    void set(MemogateConfig next) {
        config = Objects.requireNonNull(next, "next");
    }
}

package io.memogate.bench.targets;

import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * A running endpoint pgbench connects to on 127.0.0.1, reaching the {@link Backend}. Closing it stops
 * whatever was started for it and removes its files; closing twice does nothing more.
 */
public interface Target extends AutoCloseable {

    TargetKind kind();

    int port();

    /** One line for the report: what runs, which version, how it is configured. */
    String description();

    /**
     * CPU time (user + system, all threads) used so far by the process that relays for this target;
     * empty when there is none (direct) or the system does not say. Sampled around each run, it gives
     * what a proxy costs per transaction: on a machine where pgbench, the server and the proxy share
     * two cores, that cost is what throughput is traded for.
     */
    default Optional<Duration> cpuTime() {
        return Optional.empty();
    }

    /**
     * The id of the process that relays for this target, whose system calls, context switches and allocation
     * the benchmark counts; empty when there is none (direct). For the in-JVM proxies it is this JVM.
     */
    default OptionalLong relayPid() {
        return OptionalLong.empty();
    }

    /**
     * Every process that relays for this target, whose CPU the machine's split counts as the relay's: the one of
     * {@link #relayPid()}, or several where relays are chained.
     */
    default Set<Long> relayPids() {
        OptionalLong pid = relayPid();
        return pid.isPresent() ? Set.of(pid.getAsLong()) : Set.of();
    }

    @Override
    void close() throws IOException;
}

package io.memogate.broker.probe;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * One reading of a server's memory state, immutable. Every value was read in the poll that made it;
 * values a server or host cannot give are empty, never zero.
 *
 * <p>The statistics counters are cumulative as the server keeps them; the broker turns two snapshots
 * into the activity of the interval between them.
 *
 * @param takenAtNanos        when the poll started, on the probe's {@code nanoTime} clock
 * @param serverVersionNum    e.g. 180001 for PostgreSQL 18.1
 * @param sharedBuffersBytes  the shared buffer pool, mapped once and counted once for the host
 * @param workMemBytes        memory one sort or hash node may use before spilling
 * @param hashMemMultiplier   hash nodes may use this many times work_mem
 * @param maxConnections      the server's connection limit
 * @param activeBackends      client backends running a statement, the probe's own excluded
 * @param clientBackendPids   pids of all client backends, the probe's own excluded, ascending
 * @param plannerSettings     the server's planner settings by name (join_collapse_limit, geqo, ...) as
 *                            the server shows them: the defaults a new session plans with
 * @param tempBytes           cumulative bytes written to temporary files by all databases (spills)
 * @param blocksRead          cumulative blocks read from outside the buffer pool
 * @param blocksHit           cumulative blocks found in the buffer pool
 * @param io                  cumulative client-backend I/O where the server reports it (PostgreSQL 16+)
 * @param privateBytesByPid   private resident memory per server process when co-located, else empty
 * @param hostMemoryTotal     the host's memory when co-located, else empty
 * @param hostMemoryAvailable the host's available memory when co-located, else empty
 */
public record MemorySnapshot(
        long takenAtNanos,
        int serverVersionNum,
        long sharedBuffersBytes,
        long workMemBytes,
        double hashMemMultiplier,
        int maxConnections,
        int activeBackends,
        List<Integer> clientBackendPids,
        Map<String, String> plannerSettings,
        long tempBytes,
        long blocksRead,
        long blocksHit,
        Optional<IoCounters> io,
        Map<Integer, Long> privateBytesByPid,
        OptionalLong hostMemoryTotal,
        OptionalLong hostMemoryAvailable) {

    public MemorySnapshot {
        requirePositive("serverVersionNum", serverVersionNum);
        requireNonNegative("sharedBuffersBytes", sharedBuffersBytes);
        requireNonNegative("workMemBytes", workMemBytes);
        if (!(hashMemMultiplier >= 1.0) || Double.isInfinite(hashMemMultiplier)) {
            // PostgreSQL accepts 1..1000; NaN fails this test too.
            throw new IllegalArgumentException("hashMemMultiplier must be a finite number >= 1, was "
                    + hashMemMultiplier);
        }
        requirePositive("maxConnections", maxConnections);
        requireNonNegative("activeBackends", activeBackends);
        clientBackendPids = List.copyOf(Objects.requireNonNull(clientBackendPids, "clientBackendPids"));
        if (activeBackends > clientBackendPids.size()) {
            throw new IllegalArgumentException("activeBackends must be at most the " + clientBackendPids.size()
                    + " client backends, was " + activeBackends);
        }
        plannerSettings = Collections.unmodifiableMap(new TreeMap<>(
                Objects.requireNonNull(plannerSettings, "plannerSettings")));
        requireNonNegative("tempBytes", tempBytes);
        requireNonNegative("blocksRead", blocksRead);
        requireNonNegative("blocksHit", blocksHit);
        Objects.requireNonNull(io, "io");
        privateBytesByPid = Collections.unmodifiableMap(new TreeMap<>(
                Objects.requireNonNull(privateBytesByPid, "privateBytesByPid")));
        privateBytesByPid.forEach((pid, bytes) -> requireNonNegative("privateBytesByPid[" + pid + "]", bytes));
        Objects.requireNonNull(hostMemoryTotal, "hostMemoryTotal");
        Objects.requireNonNull(hostMemoryAvailable, "hostMemoryAvailable");
    }

    /** The sum of {@link #privateBytesByPid()}: what the server's processes hold beyond shared memory. */
    public long privateBytesTotal() {
        return privateBytesByPid.values().stream().mapToLong(Long::longValue).sum();
    }

    private static void requirePositive(String field, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(field + " must be > 0, was " + value);
        }
    }

    private static void requireNonNegative(String field, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(field + " must be >= 0, was " + value);
        }
    }
}

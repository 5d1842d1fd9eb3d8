package io.memogate.broker.probe.postgres;

import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;

import io.memogate.broker.probe.HostMemory;
import io.memogate.broker.probe.MemorySnapshot;
import io.memogate.broker.probe.PressureCounters;
import io.memogate.broker.probe.ServerConnections;
import io.memogate.broker.probe.ServerMemory;
import io.memogate.broker.probe.ServerVersion;

/**
 * One poll's readings in PostgreSQL's own terms, and their mapping into the broker's server-neutral
 * {@link MemorySnapshot} ({@link #snapshot()}); that javadoc lists where each PostgreSQL value goes.
 *
 * @param takenAtNanos      when the poll started, on the probe's clock
 * @param settings          pg_settings
 * @param activity          pg_stat_activity
 * @param statistics        pg_stat_database and pg_stat_io
 * @param privateBytesByPid private resident memory per server process when co-located, else empty
 * @param host              the host's memory when co-located, else empty
 */
record PostgresReading(long takenAtNanos, ServerSettings settings, Activity activity, CumulativeStatistics statistics,
                       Map<Integer, Long> privateBytesByPid, HostMemory host) {

    PostgresReading {
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(activity, "activity");
        Objects.requireNonNull(statistics, "statistics");
        privateBytesByPid = Map.copyOf(privateBytesByPid);
        Objects.requireNonNull(host, "host");
    }

    /**
     * What the running queries may take: each active backend may hold at least one hash table of work_mem x
     * hash_mem_multiplier. Rounded up, so that the reserve is never below what the server allows.
     */
    long queryBytes() {
        return (long) Math.ceil((double) activity.activeBackends() * settings.workMemBytes()
                * settings.hashMemMultiplier());
    }

    MemorySnapshot snapshot() {
        return new MemorySnapshot(takenAtNanos,
                new ServerVersion(settings.serverVersion(), settings.serverVersionNum()),
                new ServerMemory(settings.sharedBuffersBytes(), queryBytes(), OptionalLong.of(settings.workMemBytes()),
                        OptionalLong.empty(), privateBytesByPid),
                new ServerConnections(settings.maxConnections(), activity.activeBackends(),
                        activity.clientBackendPids()),
                new PressureCounters(statistics.tempBytes(), statistics.blocksRead(), statistics.blocksHit(),
                        statistics.io(), OptionalLong.empty()),
                settings.plannerSettings(), host);
    }
}

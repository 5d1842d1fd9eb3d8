package io.memogate.broker;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.IntStream;

import io.memogate.broker.probe.HostMemory;
import io.memogate.broker.probe.IoCounters;
import io.memogate.broker.probe.MemorySnapshot;
import io.memogate.broker.probe.PressureCounters;
import io.memogate.broker.probe.ServerConnections;
import io.memogate.broker.probe.ServerMemory;
import io.memogate.broker.probe.ServerVersion;

/** Synthetic snapshots for tests: a plausible remote server, idle, changed field by field. */
final class SnapshotBuilder {

    static final long MIB = 1024L * 1024;
    static final long GIB = 1024 * MIB;

    private long takenAtNanos;
    private long cacheBytes = 128 * MIB;
    private long queryBytes;
    private int activeConnections;
    private int connections;
    private Map<String, String> plannerSettings = Map.of("join_collapse_limit", "8", "geqo", "on");
    private long spilledBytes;
    private long cacheMisses;
    private long cacheHits;
    private Optional<IoCounters> io = Optional.empty();
    private Map<Integer, Long> retainedBytesById = Map.of();
    private HostMemory host = new HostMemory(OptionalLong.empty(), OptionalLong.empty());
    private OptionalLong ceilingBytes = OptionalLong.empty();

    SnapshotBuilder at(long nanos) {
        this.takenAtNanos = nanos;
        return this;
    }

    SnapshotBuilder cache(long bytes) {
        this.cacheBytes = bytes;
        return this;
    }

    /** {@code active} running queries out of {@code connections}, ids 1000, 1001, ..., each taking {@code bytes}. */
    SnapshotBuilder running(int connections, int active, long bytesEach) {
        this.connections = connections;
        this.activeConnections = active;
        this.queryBytes = active * bytesEach;
        return this;
    }

    SnapshotBuilder plannerSettings(Map<String, String> settings) {
        this.plannerSettings = settings;
        return this;
    }

    SnapshotBuilder counters(long spilledBytes, long cacheMisses, long cacheHits) {
        this.spilledBytes = spilledBytes;
        this.cacheMisses = cacheMisses;
        this.cacheHits = cacheHits;
        return this;
    }

    SnapshotBuilder io(long reads, long writes, long extensions) {
        this.io = Optional.of(new IoCounters(reads, writes, extensions));
        return this;
    }

    SnapshotBuilder retainedBytes(Map<Integer, Long> byId) {
        this.retainedBytesById = byId;
        return this;
    }

    SnapshotBuilder meminfo(long total, long available) {
        this.host = new HostMemory(OptionalLong.of(total), OptionalLong.of(available));
        return this;
    }

    /** The server's own memory ceiling (SQL Server's target server memory). */
    SnapshotBuilder ceiling(long bytes) {
        this.ceilingBytes = OptionalLong.of(bytes);
        return this;
    }

    MemorySnapshot build() {
        return new MemorySnapshot(takenAtNanos, new ServerVersion("18.1", 180001),
                new ServerMemory(cacheBytes, queryBytes, OptionalLong.empty(), OptionalLong.empty(), retainedBytesById,
                        ceilingBytes),
                new ServerConnections(100, activeConnections, IntStream.range(1000, 1000 + connections).boxed().toList()),
                new PressureCounters(spilledBytes, cacheMisses, cacheHits, io, OptionalLong.empty()),
                plannerSettings, host);
    }
}

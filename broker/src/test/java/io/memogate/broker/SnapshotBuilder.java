package io.memogate.broker;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.IntStream;

import io.memogate.broker.probe.IoCounters;
import io.memogate.broker.probe.MemorySnapshot;

/** Synthetic snapshots for tests: a plausible remote PostgreSQL 18 with defaults, changed field by field. */
final class SnapshotBuilder {

    static final long MIB = 1024L * 1024;
    static final long GIB = 1024 * MIB;

    private long takenAtNanos;
    private long sharedBuffersBytes = 128 * MIB;
    private long workMemBytes = 4 * MIB;
    private double hashMemMultiplier = 2.0;
    private int activeBackends;
    private List<Integer> clientBackendPids = List.of();
    private Map<String, String> plannerSettings = Map.of("join_collapse_limit", "8", "geqo", "on");
    private long tempBytes;
    private long blocksRead;
    private long blocksHit;
    private Optional<IoCounters> io = Optional.empty();
    private Map<Integer, Long> privateBytesByPid = Map.of();
    private OptionalLong hostMemoryTotal = OptionalLong.empty();
    private OptionalLong hostMemoryAvailable = OptionalLong.empty();

    SnapshotBuilder at(long nanos) {
        this.takenAtNanos = nanos;
        return this;
    }

    SnapshotBuilder sharedBuffers(long bytes) {
        this.sharedBuffersBytes = bytes;
        return this;
    }

    SnapshotBuilder workMem(long bytes, double hashMemMultiplier) {
        this.workMemBytes = bytes;
        this.hashMemMultiplier = hashMemMultiplier;
        return this;
    }

    /** {@code active} active backends out of {@code clients}, pids 1000, 1001, ... */
    SnapshotBuilder backends(int clients, int active) {
        this.clientBackendPids = IntStream.range(1000, 1000 + clients).boxed().toList();
        this.activeBackends = active;
        return this;
    }

    SnapshotBuilder plannerSettings(Map<String, String> settings) {
        this.plannerSettings = settings;
        return this;
    }

    SnapshotBuilder counters(long tempBytes, long blocksRead, long blocksHit) {
        this.tempBytes = tempBytes;
        this.blocksRead = blocksRead;
        this.blocksHit = blocksHit;
        return this;
    }

    SnapshotBuilder io(long reads, long writes, long extensions) {
        this.io = Optional.of(new IoCounters(reads, writes, extensions));
        return this;
    }

    SnapshotBuilder privateBytes(Map<Integer, Long> byPid) {
        this.privateBytesByPid = byPid;
        return this;
    }

    SnapshotBuilder meminfo(long total, long available) {
        this.hostMemoryTotal = OptionalLong.of(total);
        this.hostMemoryAvailable = OptionalLong.of(available);
        return this;
    }

    MemorySnapshot build() {
        return new MemorySnapshot(takenAtNanos, 180001, sharedBuffersBytes, workMemBytes, hashMemMultiplier, 100,
                activeBackends, clientBackendPids, plannerSettings, tempBytes, blocksRead, blocksHit, io,
                privateBytesByPid, hostMemoryTotal, hostMemoryAvailable);
    }
}

package io.memogate.proxy.metrics;

import io.memogate.broker.probe.HostMemory;
import io.memogate.broker.probe.MemorySnapshot;
import io.memogate.broker.probe.PressureCounters;
import io.memogate.broker.probe.ServerConnections;
import io.memogate.broker.probe.ServerGateway;
import io.memogate.broker.probe.ServerMemory;
import io.memogate.broker.probe.ServerVersion;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/** A SQL Server's snapshot as its probe maps it (28 GB target server memory), with the given gateways of its own. */
public final class SqlServerSnapshots {

    private SqlServerSnapshots() {
    }

    public static MemorySnapshot withGateways(List<ServerGateway> gateways) {
        long gib = 1L << 30;
        return new MemorySnapshot(0, new ServerVersion("16.0.4135.4", 160_004_135),
                new ServerMemory(20 * gib, gib, OptionalLong.empty(), OptionalLong.of(10L << 20), Map.of(),
                        OptionalLong.of(28 * gib)),
                new ServerConnections(32767, 0, List.of()),
                new PressureCounters(0, 0, 0, Optional.empty(), OptionalLong.of(0), OptionalLong.of(0)),
                Map.of(), new HostMemory(OptionalLong.empty(), OptionalLong.empty()), gateways);
    }
}

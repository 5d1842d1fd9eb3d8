package io.memogate.broker.probe.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import io.memogate.broker.BrokerSettings;
import io.memogate.broker.TargetPolicy;
import io.memogate.broker.probe.HostMemory;
import io.memogate.broker.probe.IoCounters;
import io.memogate.broker.probe.MemorySnapshot;
import io.memogate.broker.probe.PressureCounters;
import io.memogate.broker.probe.ServerConnections;
import io.memogate.broker.probe.ServerMemory;
import io.memogate.broker.probe.ServerVersion;

/** PostgreSQL's readings in the broker's neutral snapshot, and the target the broker sizes from them. */
class PostgresReadingTest {

    private static final long MIB = 1024L * 1024;
    private static final long GIB = 1024 * MIB;
    private static final HostMemory REMOTE = new HostMemory(OptionalLong.empty(), OptionalLong.empty());

    /** shared_buffers 4 GiB, work_mem 64 MiB, hash tables twice that; {@code active} of {@code clients} busy. */
    private static PostgresReading reading(int clients, int active, double hashMemMultiplier) {
        ServerSettings settings = new ServerSettings("18.1", 180001, 4 * GIB, 64 * MIB, hashMemMultiplier, 100,
                Map.of("join_collapse_limit", "8"));
        List<Integer> pids = IntStream.range(1000, 1000 + clients).boxed().toList();
        return new PostgresReading(7, settings, new Activity(pids, active, pids, Map.of()),
                new CumulativeStatistics(300, 20, 80, Optional.of(new IoCounters(1, 2, 3))),
                Map.of(1000, 30 * MIB), REMOTE);
    }

    @Test
    void eachReadingLandsInItsNeutralField() {
        MemorySnapshot snapshot = reading(20, 10, 2.0).snapshot();

        assertThat(snapshot).isEqualTo(new MemorySnapshot(7, new ServerVersion("18.1", 180001),
                new ServerMemory(4 * GIB, 10 * 64 * MIB * 2, OptionalLong.of(64 * MIB), OptionalLong.empty(),
                        Map.of(1000, 30 * MIB)),
                new ServerConnections(100, 10, IntStream.range(1000, 1020).boxed().toList()),
                new PressureCounters(300, 20, 80, Optional.of(new IoCounters(1, 2, 3)), OptionalLong.empty()),
                Map.of("join_collapse_limit", "8"), REMOTE));
    }

    @Test
    void theTargetIsHalfOfWhatSharedBuffersAndTheActiveBackendsHashTablesLeave() {
        BrokerSettings settings = BrokerSettings.builder("jdbc:postgresql://db/postgres", "monitor", null)
                .hostMemoryBytes(16 * GIB).build();
        TargetPolicy policy = new TargetPolicy(settings);

        // spare = 16384 - 4096 - 10 x 64 x 2 = 11008 MiB; half of it.
        assertThat(policy.rawTarget(reading(20, 10, 2.0).snapshot())).isEqualTo(5504 * MIB);
        for (int active = 0; active <= 200; active += 10) {
            double spare = 16.0 * GIB - 4.0 * GIB - active * 64.0 * MIB * 2.0;
            assertThat(policy.rawTarget(reading(200, active, 2.0).snapshot())).as("%d active backends", active)
                    .isEqualTo(Math.max(settings.minimumTargetBytes(), (long) (0.5 * Math.max(0, spare))));
        }
    }

    @Test
    void aFractionalMultiplierRoundsTheReserveUpToAWholeByte() {
        ServerSettings settings = new ServerSettings("18.1", 180001, 128 * MIB, 1024, 1.1, 100, Map.of());
        PostgresReading reading = new PostgresReading(0, settings,
                new Activity(List.of(1, 2, 3), 3, List.of(1, 2, 3), Map.of()),
                new CumulativeStatistics(0, 0, 0, Optional.empty()), Map.of(), REMOTE);

        assertThat(reading.queryBytes()).as("3 x 1024 x 1.1 = 3379.2").isEqualTo(3380);
    }
}

package io.memogate.broker.probe.sqlserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import org.junit.jupiter.api.Test;

import io.memogate.broker.BrokerSettings;
import io.memogate.broker.IntervalStatistics;
import io.memogate.broker.PressureSignal;
import io.memogate.broker.TargetDecision;
import io.memogate.broker.TargetPolicy;
import io.memogate.broker.probe.MemorySnapshot;
import io.memogate.broker.probe.ProbeException;
import io.memogate.broker.probe.ServerGateway;

/**
 * The snapshot computed from hand-written result sets (src/test/resources/handwritten/: written by hand in the shapes
 * Microsoft documents, not captured from a server), and the target the broker's own policy sizes from it.
 */
class SqlServerReadingTest {

    private static final long KB = 1024;
    private static final long SECOND = 1_000_000_000L;
    private static final long MIB = 1024 * KB;

    /** The broker's defaults for a remote server (host memory unknown): half of what is spare. */
    private final TargetPolicy policy = new TargetPolicy(
            BrokerSettings.builder("jdbc:sqlserver://;serverName={db}", "memogate_monitor", null).build());

    @Test
    void aQuietServersMemoryInTheBrokersTerms() throws Exception {
        MemorySnapshot quiet = snapshot(0, HandwrittenPoll.of("quiet"));

        assertThat(quiet.version().text()).isEqualTo("16.0.4135.4");
        assertThat(quiet.version().number()).isEqualTo(160_004_135);
        // Buffer pool 20 GB and plan caches 1 GB + 256 MB + 64 MB.
        assertThat(quiet.memory().cacheBytes()).isEqualTo((20971520L + 1048576 + 262144 + 65536) * KB);
        // The execution clerk's 512 MB is more than the 384 MB granted.
        assertThat(quiet.memory().queryBytes()).isEqualTo(512 * MIB);
        assertThat(quiet.memory().compileBytes()).hasValue(10 * MIB);
        assertThat(quiet.memory().ceilingBytes()).hasValue(28L * 1024 * MIB);
        assertThat(quiet.memory().operationBytes()).isEmpty();
        assertThat(quiet.memory().retainedBytesById()).isEqualTo(
                Map.of(61, 40 * 8 * KB, 64, 24 * 8 * KB, 70, 3 * 8 * KB, 71, 3 * 8 * KB));
        assertThat(quiet.connections().limit()).isEqualTo(32767);
        assertThat(quiet.connections().ids()).containsExactly(61, 64, 70, 71);
        assertThat(quiet.connections().active()).isEqualTo(2);
        assertThat(quiet.pressure().cacheMisses()).as("Buffer Manager's, not Buffer Node's").isEqualTo(1_000_000);
        assertThat(quiet.pressure().cacheHits()).isEqualTo(98_000_000);
        assertThat(quiet.pressure().spilledBytes()).as("work files, counted").isEqualTo(4000);
        assertThat(quiet.pressure().compileWaits()).hasValue(120);
        assertThat(quiet.pressure().memoryWaitMillis()).hasValue(90000 + 12000 + 60000);
        assertThat(quiet.host().totalBytes()).isEmpty();
        assertThat(quiet.host().availableBytes()).hasValue(3L * 1024 * MIB);
        assertThat(quiet.plannerSettings()).containsEntry("cpu_count", "8").containsEntry("scheduler_count", "8");
        assertThat(quiet.serverGateways()).containsExactly(
                new ServerGateway("Small Gateway", 2, 32, 3, 0, OptionalLong.of(380000)),
                new ServerGateway("Medium Gateway", 2, 8, 0, 0, OptionalLong.empty()),
                new ServerGateway("Big Gateway", 2, 1, 0, 0, OptionalLong.empty()));
    }

    @Test
    void theTargetIsHalfOfWhatTargetServerMemoryLeavesAfterTheCachesAndTheQueries() throws Exception {
        MemorySnapshot quiet = snapshot(0, HandwrittenPoll.of("quiet"));

        // 28 GB - 21824 MB of caches - 512 MB of execution = 6336 MB spare; half of it.
        TargetDecision first = policy.next(OptionalLong.empty(), Optional.empty(), Optional.empty(), quiet);

        assertThat(first.rawTargetBytes()).isEqualTo(3168 * MIB);
        assertThat(first.targetBytes()).isEqualTo(3168 * MIB);
        assertThat(first.signals()).isEmpty();
    }

    @Test
    void aCompileStormShrinksTheTargetForTheWaitsAtTheServersGatewaysAndForMemory() throws Exception {
        MemorySnapshot quiet = snapshot(0, HandwrittenPoll.of("quiet"));
        MemorySnapshot later = snapshot(30 * SECOND, HandwrittenPoll.of("quiet-later", "quiet"));
        MemorySnapshot storm = snapshot(60 * SECOND, HandwrittenPoll.of("storm", "quiet"));
        Optional<IntervalStatistics> calm = IntervalStatistics.between(quiet, later);
        Optional<IntervalStatistics> burst = IntervalStatistics.between(later, storm);

        TargetDecision steady = policy.next(OptionalLong.of(3168 * MIB), Optional.empty(), calm, later);
        TargetDecision shrunk = policy.next(OptionalLong.of(steady.targetBytes()), calm, burst, storm);

        assertThat(steady.signals()).as("no compile waited while quiet").isEmpty();
        assertThat(burst.orElseThrow().compileWaits()).hasValue(48);
        assertThat(shrunk.signals()).containsExactlyInAnyOrder(PressureSignal.COMPILE_WAITS,
                PressureSignal.MEMORY_WAITS_RISING, PressureSignal.SPILLS_RISING);
        // 28 GB - 22080 MB of caches - 3 GB of grants (one waiting) = 3520 MB spare; half, below 3/4 of the last.
        assertThat(shrunk.rawTargetBytes()).isEqualTo(1760 * MIB);
        assertThat(shrunk.targetBytes()).isEqualTo(1760 * MIB);
        assertThat(storm.serverGateways()).extracting(ServerGateway::waiterCount).containsExactly(12, 5, 3);
        assertThat(storm.memory().compileBytes()).hasValue(800 * MIB);
    }

    @Test
    void aNamedInstancesCountersAreMatchedPastTheirPrefix() throws Exception {
        DmvResults quiet = HandwrittenPoll.of("quiet").results();
        ResultRows named = HandwrittenPoll.parse("sys.dm_os_performance_counters", """
                object_name	counter_name	cntr_value
                MSSQL$REPORTS:Memory Manager	Target Server Memory (KB)	4194304
                MSSQL$REPORTS:Buffer Manager	Page reads/sec	10
                MSSQL$REPORTS:Buffer Manager	Page lookups/sec	110
                MSSQL$REPORTS:Access Methods	Workfiles Created/sec	0
                """);

        MemorySnapshot snapshot = new SqlServerReading(0, with(quiet, named)).snapshot();

        assertThat(snapshot.memory().ceilingBytes()).hasValue(4096 * MIB);
        assertThat(snapshot.pressure().cacheHits()).isEqualTo(100);
    }

    @Test
    void aMissingCounterFailsThePollNamingIt() {
        DmvResults quiet = HandwrittenPoll.of("quiet").results();
        ResultRows withoutTarget = HandwrittenPoll.parse("sys.dm_os_performance_counters", """
                object_name	counter_name	cntr_value
                SQLServer:Buffer Manager	Page reads/sec	10
                SQLServer:Buffer Manager	Page lookups/sec	110
                SQLServer:Access Methods	Workfiles Created/sec	0
                """);

        assertThatThrownBy(() -> new SqlServerReading(0, with(quiet, withoutTarget)).snapshot())
                .isInstanceOf(ProbeException.class)
                .hasMessageContaining("sys.dm_os_performance_counters has no Memory Manager/Target Server Memory (KB)");
    }

    @Test
    void releasesAreNumberedInOrder() {
        List<String> releases = List.of("10.50.6000.34", "11.0.7001.0", "12.0.6024.0", "13.0.6300.2", "15.0.4375.4",
                "16.0.4135.4", "17.0.1000.7");
        assertThat(releases.stream().map(SqlServerReading::versionNumber).toList()).isSorted();
        assertThatThrownBy(() -> SqlServerReading.versionNumber("Microsoft SQL Server 2022"))
                .hasMessageContaining("cannot read SQL Server's ProductVersion 'Microsoft SQL Server 2022'");
    }

    private static DmvResults with(DmvResults results, ResultRows counters) {
        return new DmvResults(results.server(), results.clerks(), results.waits(), counters, results.sysMemory(),
                results.sysInfo(), results.gateways(), results.grants(), results.sessions());
    }

    private static MemorySnapshot snapshot(long takenAt, HandwrittenPoll poll) throws ProbeException {
        return new SqlServerReading(takenAt, poll.results()).snapshot();
    }
}

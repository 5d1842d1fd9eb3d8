package io.memogate.broker.probe.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import org.junit.jupiter.api.Test;

import io.memogate.broker.probe.HostMemory;
import io.memogate.broker.probe.MemorySnapshot;
import io.memogate.broker.probe.ProbeException;

/**
 * The mapping of what a server reports into the broker's snapshot, for both flavours. MySQL 8 cannot run on
 * this machine, so its paths (performance_schema.threads' TOTAL_MEMORY, Global_connection_memory, the
 * instruments' total) are checked here with the values its documentation describes.
 */
class MySqlReadingTest {

    private static final long MIB = 1L << 20;

    @Test
    void mariaDbWithProcessSumsRunningThreadsAndThoseBeingOptimized() throws ProbeException {
        MemorySnapshot snapshot = reading(Flavor.MARIADB, mariaDb(), Optional.of(List.of(
                thread(7, "Sleep", "", 100_000),
                thread(8, "Query", "Statistics", 12 * MIB),
                thread(9, "Query", "Sending data", 3 * MIB),
                thread(10, "Execute", "optimizing", MIB))), Optional.empty()).snapshot();

        assertThat(snapshot.version().number()).isEqualTo(101119);
        assertThat(snapshot.memory().cacheBytes()).isEqualTo(128 * MIB);
        assertThat(snapshot.memory().queryBytes()).isEqualTo(16 * MIB);
        assertThat(snapshot.memory().compileBytes()).hasValue(13 * MIB);
        assertThat(snapshot.memory().operationBytes()).hasValue(2 * MIB);
        assertThat(snapshot.memory().retainedBytesById()).containsEntry(7, 100_000L).hasSize(4);
        assertThat(snapshot.connections().ids()).containsExactly(7, 8, 9, 10);
        assertThat(snapshot.connections().active()).isEqualTo(3);
        assertThat(snapshot.connections().limit()).isEqualTo(151);
        assertThat(snapshot.plannerSettings()).containsOnlyKeys("optimizer_search_depth", "optimizer_prune_level",
                "optimizer_switch").containsEntry("optimizer_prune_level", "2");
    }

    @Test
    void mariaDbWithoutProcessTakesEveryConnectionsMemoryAndServerCounts() throws ProbeException {
        MemorySnapshot snapshot = reading(Flavor.MARIADB, mariaDb(), Optional.empty(), Optional.empty()).snapshot();

        assertThat(snapshot.memory().queryBytes()).isEqualTo(400 * MIB - 376 * MIB);
        assertThat(snapshot.memory().compileBytes()).isEmpty();
        assertThat(snapshot.memory().retainedBytesById()).isEmpty();
        assertThat(snapshot.connections().ids()).isEmpty();
        assertThat(snapshot.connections().active()).as("Threads_running less the probe's own").isEqualTo(4);
    }

    @Test
    void withoutThreadsTheStatementArenasOfPerformanceSchemaAreTheCompileMemory() throws ProbeException {
        MemorySnapshot snapshot = reading(Flavor.MARIADB, mariaDb(), Optional.empty(),
                Optional.of(new MemoryInstruments(OptionalLong.of(5 * MIB), OptionalLong.empty(), 500 * MIB))).snapshot();

        assertThat(snapshot.memory().compileBytes()).hasValue(5 * MIB);
    }

    @Test
    void mySql8ReadsThreadsTotalMemory() throws ProbeException {
        MemorySnapshot snapshot = reading(Flavor.MYSQL, mySql(Map.of()), Optional.of(List.of(
                thread(20, "Query", "statistics", 40 * MIB),
                thread(21, "Sleep", null, MIB))), Optional.empty()).snapshot();

        assertThat(snapshot.version().number()).isEqualTo(80403);
        assertThat(snapshot.memory().queryBytes()).isEqualTo(40 * MIB);
        assertThat(snapshot.memory().compileBytes()).hasValue(40 * MIB);
        assertThat(snapshot.connections().active()).isEqualTo(1);
    }

    @Test
    void mySql8WithoutThreadsMemoryUsesTrackedConnectionMemory() throws ProbeException {
        Map<String, String> tracked = Map.of("global_connection_memory_tracking", "ON");
        Map<String, String> status = Map.of("Global_connection_memory", Long.toString(70 * MIB));

        assertThat(reading(Flavor.MYSQL, mySql(tracked, status), Optional.of(List.of(
                new ThreadRow(20, "Query", "executing", OptionalLong.empty()))), Optional.empty()).queryBytes())
                .isEqualTo(70 * MIB);
    }

    @Test
    void mySql8UntrackedFallsBackToInstrumentsLessTheBufferPoolThenToSortBuffers() throws ProbeException {
        Map<String, String> untracked = Map.of("global_connection_memory_tracking", "OFF");
        Map<String, String> status = Map.of("Global_connection_memory", "0");
        MemoryInstruments instruments = new MemoryInstruments(OptionalLong.of(MIB), OptionalLong.of(128 * MIB), 200 * MIB);

        assertThat(reading(Flavor.MYSQL, mySql(untracked, status), Optional.empty(), Optional.of(instruments))
                .queryBytes()).isEqualTo(72 * MIB);
        assertThat(reading(Flavor.MYSQL, mySql(untracked, status), Optional.empty(), Optional.empty()).queryBytes())
                .as("(Threads_running - 1) x sort_buffer_size").isEqualTo(4 * 2 * MIB);
    }

    @Test
    void cacheHitsAreRequestsLessReadsAndSpillsAreCounted() throws ProbeException {
        var pressure = reading(Flavor.MARIADB, mariaDb(), Optional.empty(), Optional.empty()).snapshot().pressure();

        assertThat(pressure.cacheMisses()).isEqualTo(50);
        assertThat(pressure.cacheHits()).isEqualTo(950);
        assertThat(pressure.spilledBytes()).isEqualTo(3 + 4);
        assertThat(pressure.compileWaits()).isEmpty();
    }

    @Test
    void aMissingVariableFailsThePollNamingIt() {
        GlobalValues values = mariaDb();
        Map<String, String> variables = new HashMap<>(values.variables());
        variables.remove("innodb_buffer_pool_size");

        assertThatThrownBy(() -> reading(Flavor.MARIADB, new GlobalValues(variables, values.status()), Optional.empty(),
                Optional.empty()).snapshot()).isInstanceOf(ProbeException.class)
                .hasMessage("the server reported no variable innodb_buffer_pool_size");
    }

    @Test
    void versionsAreNumberedAsMySqlVersionId() {
        assertThat(Flavor.versionNumber("10.11.19-MariaDB-0+deb12u1")).isEqualTo(101119);
        assertThat(Flavor.versionNumber("5.5.5-10.6.4-MariaDB")).isEqualTo(100604);
        assertThat(Flavor.versionNumber("8.0.31")).isEqualTo(80031);
        assertThat(Flavor.of("11.4.2-MariaDB")).isEqualTo(Flavor.MARIADB);
        assertThat(Flavor.of("8.4.3")).isEqualTo(Flavor.MYSQL);
        assertThatThrownBy(() -> Flavor.versionNumber("unknown")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'unknown'");
    }

    @Test
    void theThreadsQueryFollowsFlavourReleaseAndPerformanceSchema() {
        assertThat(ThreadsReader.query(Flavor.MARIADB, 101119, false)).contains("MEMORY_USED");
        assertThat(ThreadsReader.query(Flavor.MYSQL, 80031, true)).contains("performance_schema.threads", "TOTAL_MEMORY");
        assertThat(ThreadsReader.query(Flavor.MYSQL, 80030, true)).contains("information_schema.PROCESSLIST")
                .doesNotContain("MEMORY");
        assertThat(ThreadsReader.query(Flavor.MYSQL, 80400, false)).contains("information_schema.PROCESSLIST");
    }

    @Test
    void fallbacksNameTheGrantsThatLiftThem() {
        MonitoringRights withoutProcess = new MonitoringRights("mon@10.0.%", false);

        assertThat(new Visibility(Flavor.MYSQL, withoutProcess, true, false).fallbacks()).hasValueSatisfying(text ->
                assertThat(text).startsWith("MySQL monitoring user 'mon'@'10.0.%'")
                        .contains("GRANT PROCESS ON *.* TO 'mon'@'10.0.%'",
                                "GRANT SELECT ON performance_schema.* TO 'mon'@'10.0.%'", "Global_connection_memory"));
        assertThat(new Visibility(Flavor.MARIADB, withoutProcess, false, false).fallbacks()).hasValueSatisfying(text ->
                assertThat(text).contains("Memory_used - Memory_used_initial").doesNotContain("performance_schema.*"));
        assertThat(new Visibility(Flavor.MARIADB, new MonitoringRights("o'k@%", true), true, true).fallbacks()).isEmpty();
        assertThat(new MonitoringRights("o'k@%", true).account()).isEqualTo("'o''k'@'%'");
    }

    private static ThreadRow thread(long id, String command, String state, long bytes) {
        return new ThreadRow(id, command, state, OptionalLong.of(bytes));
    }

    private static MySqlReading reading(Flavor flavor, GlobalValues values, Optional<List<ThreadRow>> threads,
                                        Optional<MemoryInstruments> instruments) {
        return new MySqlReading(1, flavor, values, threads, instruments,
                new HostMemory(OptionalLong.empty(), OptionalLong.empty()));
    }

    private static GlobalValues mariaDb() {
        Map<String, String> variables = new HashMap<>(common());
        variables.put("version", "10.11.19-MariaDB-0+deb12u1");
        variables.put("optimizer_prune_level", "2");
        Map<String, String> status = new HashMap<>(commonStatus());
        status.put("Memory_used", Long.toString(400 * MIB));
        status.put("Memory_used_initial", Long.toString(376 * MIB));
        return new GlobalValues(variables, status);
    }

    private static GlobalValues mySql(Map<String, String> extraVariables) {
        return mySql(extraVariables, Map.of());
    }

    private static GlobalValues mySql(Map<String, String> extraVariables, Map<String, String> extraStatus) {
        Map<String, String> variables = new HashMap<>(common());
        variables.put("version", "8.4.3");
        variables.put("optimizer_prune_level", "1");
        variables.putAll(extraVariables);
        Map<String, String> status = new HashMap<>(commonStatus());
        status.putAll(extraStatus);
        return new GlobalValues(variables, status);
    }

    private static Map<String, String> common() {
        return Map.of("innodb_buffer_pool_size", Long.toString(128 * MIB), "sort_buffer_size", Long.toString(2 * MIB),
                "max_connections", "151", "performance_schema", "ON", "optimizer_search_depth", "62",
                "optimizer_switch", "index_merge=on,mrr=off");
    }

    private static Map<String, String> commonStatus() {
        return Map.of("Threads_connected", "9", "Threads_running", "5", "Innodb_buffer_pool_reads", "50",
                "Innodb_buffer_pool_read_requests", "1000", "Created_tmp_disk_tables", "3", "Sort_merge_passes", "4");
    }
}

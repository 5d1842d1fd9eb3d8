package io.memogate.broker.probe;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One reading of a server's memory state, immutable and the same for every kind of server: each probe
 * maps what its server reports into these fields, and the broker's policy reads nothing else. Every
 * value was read in the poll that made it; values a server or host cannot give are empty, never zero.
 * The counters in {@link #pressure()} are cumulative as the server keeps them; the broker turns two
 * snapshots into the activity of the interval between them.
 *
 * <p>What each field is for PostgreSQL (PG, the one probe so far), and what a MySQL/MariaDB probe (from
 * performance_schema, P_S, and status variables) or a SQL Server probe (MS, from its dm_* views) would map there:
 * <pre>
 * version.text, number  PG server_version, server_version_num; MySQL @@version, MYSQL_VERSION_ID; MS ProductVersion
 * memory.cacheBytes     PG shared_buffers; MySQL innodb_buffer_pool_size; MS clerk MEMORYCLERK_SQLBUFFERPOOL
 * memory.queryBytes     PG active x work_mem x hash_mem_multiplier; MySQL P_S memory of running threads; MS grants
 * memory.operationBytes PG work_mem; MySQL sort_buffer_size; MS empty (a query's grant is sized for it)
 * memory.compileBytes   PG empty; MySQL P_S memory/sql/THD::main_mem_root; MS clerks SQLOPTIMIZER + SQLQUERYCOMPILE
 * memory.retainedBytes  PG RssAnon per process in /proc; MySQL P_S memory_summary_by_thread; MS sessions' memory_usage
 * memory.ceilingBytes   PG empty; MySQL empty; MS counter "Target Server Memory (KB)" (what the server grows to)
 * connections.limit     PG max_connections; MySQL max_connections; MS @@MAX_CONNECTIONS
 * connections.active    PG client backends in state 'active'; MySQL threads not in Sleep; MS dm_exec_requests' sessions
 * connections.ids       PG client backend pids; MySQL PROCESSLIST_ID; MS session_id
 * pressure.spilledBytes PG temp_bytes; MySQL P_S bytes written to temporary files; MS tempdb internal-object pages
 * pressure.cacheMisses  PG blks_read; MySQL Innodb_buffer_pool_reads; MS counter "Page reads/sec" (cumulative)
 * pressure.cacheHits    PG blks_hit; MySQL Innodb_buffer_pool_read_requests - reads; MS "Page lookups/sec" - page reads
 * pressure.io           PG pg_stat_io (16+); MySQL P_S file_summary_by_event_name; MS dm_io_virtual_file_stats
 * pressure.compileWaits PG empty (no compile gate); MySQL empty; MS RESOURCE_SEMAPHORE_QUERY_COMPILE waits
 * pressure.memoryWaits  PG empty; MySQL empty; MS ms waited on RESOURCE_SEMAPHORE and the memory allocation waits
 * plannerSettings       PG join_collapse_limit, from_collapse_limit, geqo*; MySQL optimizer_search_depth, prune_level
 * host                  /proc/meminfo when co-located, whatever the server; MS reads dm_os_sys_memory remotely
 * serverGateways        PG none; MySQL none; MS dm_exec_query_optimizer_memory_gateways
 * </pre>
 *
 * @param takenAtNanos    when the poll started, on the probe's {@code nanoTime} clock
 * @param version         which release the server runs
 * @param memory          what the server reserves and what its work may take, in bytes
 * @param connections     the server's connections, the probe's own excluded
 * @param pressure        cumulative counters the pressure signals come from
 * @param plannerSettings the server's planner settings by name, as a new session plans with them
 * @param host            the host's memory when co-located, else empty
 * @param serverGateways  the compile gates the server keeps itself; empty where it has none
 */
public record MemorySnapshot(
        long takenAtNanos,
        ServerVersion version,
        ServerMemory memory,
        ServerConnections connections,
        PressureCounters pressure,
        Map<String, String> plannerSettings,
        HostMemory host,
        List<ServerGateway> serverGateways) {

    /** A snapshot of a server that keeps no compile gates of its own. */
    public MemorySnapshot(long takenAtNanos, ServerVersion version, ServerMemory memory, ServerConnections connections,
                          PressureCounters pressure, Map<String, String> plannerSettings, HostMemory host) {
        this(takenAtNanos, version, memory, connections, pressure, plannerSettings, host, List.of());
    }

    public MemorySnapshot {
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(memory, "memory");
        Objects.requireNonNull(connections, "connections");
        Objects.requireNonNull(pressure, "pressure");
        plannerSettings = Collections.unmodifiableMap(new TreeMap<>(
                Objects.requireNonNull(plannerSettings, "plannerSettings")));
        Objects.requireNonNull(host, "host");
        serverGateways = List.copyOf(Objects.requireNonNull(serverGateways, "serverGateways"));
    }
}

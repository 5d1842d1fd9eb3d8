package io.memogate.broker.probe.sqlserver;

import java.util.Objects;
import java.util.Optional;

/**
 * One poll's result sets, as {@link DmvReader} reads them from a server or a test reads them from hand-written files;
 * {@link SqlServerReading} computes the snapshot from them alone.
 *
 * @param server      SERVERPROPERTY('ProductVersion'), @@MAX_CONNECTIONS
 * @param clerks      sys.dm_os_memory_clerks: pages_kb summed by type, for the types the probe uses
 * @param waits       sys.dm_os_wait_stats: the memory and compile waits
 * @param counters    sys.dm_os_performance_counters: memory manager and buffer manager counters
 * @param sysMemory   sys.dm_os_sys_memory: the host's memory as the server sees it
 * @param sysInfo     sys.dm_os_sys_info: CPUs and schedulers
 * @param gateways    sys.dm_exec_query_optimizer_memory_gateways; empty on a release without the view
 * @param grants      sys.dm_exec_query_memory_grants: queries holding or waiting for workspace memory
 * @param sessions    sys.dm_exec_sessions: user sessions but the probe's own, whether each runs a request
 */
record DmvResults(ResultRows server, ResultRows clerks, ResultRows waits, ResultRows counters, ResultRows sysMemory,
                  ResultRows sysInfo, Optional<ResultRows> gateways, ResultRows grants, ResultRows sessions) {

    DmvResults {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(clerks, "clerks");
        Objects.requireNonNull(waits, "waits");
        Objects.requireNonNull(counters, "counters");
        Objects.requireNonNull(sysMemory, "sysMemory");
        Objects.requireNonNull(sysInfo, "sysInfo");
        Objects.requireNonNull(gateways, "gateways");
        Objects.requireNonNull(grants, "grants");
        Objects.requireNonNull(sessions, "sessions");
    }
}

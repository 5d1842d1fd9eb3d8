package io.memogate.broker.probe.sqlserver;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.memogate.broker.probe.HostMemory;
import io.memogate.broker.probe.MemorySnapshot;
import io.memogate.broker.probe.PressureCounters;
import io.memogate.broker.probe.ProbeException;
import io.memogate.broker.probe.ServerConnections;
import io.memogate.broker.probe.ServerGateway;
import io.memogate.broker.probe.ServerMemory;
import io.memogate.broker.probe.ServerVersion;

/**
 * One poll's result sets mapped into the broker's server-neutral {@link MemorySnapshot}: a pure function of
 * {@link DmvResults}, tested on hand-written result sets in the documented shapes.
 * <pre>
 * version            SERVERPROPERTY('ProductVersion') 16.0.4135.4; number major x 10^7 + minor x 10^5 + build
 * memory.cache       clerks MEMORYCLERK_SQLBUFFERPOOL + the plan caches CACHESTORE_SQLCP, _OBJCP, _PHDR: the
 *                    server's caches, which hold what the buffer pool and compiles leave
 * memory.query       workspace memory of sys.dm_exec_query_memory_grants (granted, or requested while waiting),
 *                    or clerk MEMORYCLERK_SQLQUERYEXEC when it holds more (the grants' pages are allocated there)
 * memory.operation   empty: SQL Server sizes each query's grant for it, no setting bounds one sort
 * memory.compile     clerks MEMORYCLERK_SQLOPTIMIZER + MEMORYCLERK_SQLQUERYCOMPILE
 * memory.retained    sys.dm_exec_sessions.memory_usage (8 KB pages) by session_id, user sessions
 * memory.ceiling     counter Memory Manager / Target Server Memory (KB): the server grows to it and no further,
 *                    and lowers it itself when the host runs short
 * connections        @@MAX_CONNECTIONS; user sessions but the probe's, active when they have a request
 * pressure.spilled   counter Access Methods / Workfiles Created/sec (hash spills; a cumulative count, not bytes)
 * pressure.cache     counters Buffer Manager / Page reads/sec (misses), Page lookups/sec less reads (hits)
 * pressure.compile   RESOURCE_SEMAPHORE_QUERY_COMPILE waiting_tasks_count: compiles held at the server's gateways
 * pressure.memory    wait_time_ms of RESOURCE_SEMAPHORE (grants), RESERVED_MEMORY_ALLOCATION_EXT,
 *                    MEMORY_ALLOCATION_EXT and RESMGR_THROTTLED
 * plannerSettings    cpu_count and scheduler_count of sys.dm_os_sys_info (the server's gateways are sized by them)
 * host               available from sys.dm_os_sys_memory; its total left empty on purpose: a server sized to fill
 *                    the host would always look near the host's limit, and its own target already yields
 * serverGateways     sys.dm_exec_query_optimizer_memory_gateways, one per gateway and resource pool
 * </pre>
 * The "/sec" counters are cumulative in sys.dm_os_performance_counters (PERF_COUNTER_BULK_COUNT); the broker
 * turns two polls into rates. A clerk or wait type absent from its view has nothing allocated or waited: zero.
 *
 * @param takenAtNanos when the poll started, on the probe's clock
 * @param results      the poll's result sets
 */
record SqlServerReading(long takenAtNanos, DmvResults results) {

    static final String BUFFER_POOL = "MEMORYCLERK_SQLBUFFERPOOL";
    static final String OPTIMIZER = "MEMORYCLERK_SQLOPTIMIZER";
    static final String QUERY_COMPILE = "MEMORYCLERK_SQLQUERYCOMPILE";
    static final String QUERY_EXECUTION = "MEMORYCLERK_SQLQUERYEXEC";
    /** Ad hoc and prepared plans, procedures' plans, bound trees (views, constraints). */
    static final List<String> PLAN_CACHES = List.of("CACHESTORE_SQLCP", "CACHESTORE_OBJCP", "CACHESTORE_PHDR");
    static final List<String> CLERK_TYPES = List.of(BUFFER_POOL, OPTIMIZER, QUERY_COMPILE, QUERY_EXECUTION,
            PLAN_CACHES.get(0), PLAN_CACHES.get(1), PLAN_CACHES.get(2));

    static final String COMPILE_WAIT = "RESOURCE_SEMAPHORE_QUERY_COMPILE";
    static final List<String> MEMORY_WAITS = List.of("RESOURCE_SEMAPHORE", "RESERVED_MEMORY_ALLOCATION_EXT",
            "MEMORY_ALLOCATION_EXT", "RESMGR_THROTTLED");
    static final List<String> WAIT_TYPES = List.of(COMPILE_WAIT, "RESOURCE_SEMAPHORE", "RESERVED_MEMORY_ALLOCATION_EXT",
            "MEMORY_ALLOCATION_EXT", "RESMGR_THROTTLED");

    static final String TARGET_MEMORY = "Memory Manager/Target Server Memory (KB)";
    static final String PAGE_READS = "Buffer Manager/Page reads/sec";
    static final String PAGE_LOOKUPS = "Buffer Manager/Page lookups/sec";
    static final String WORKFILES = "Access Methods/Workfiles Created/sec";
    static final List<String> COUNTER_NAMES = List.of("Target Server Memory (KB)", "Page reads/sec", "Page lookups/sec",
            "Workfiles Created/sec");

    private static final long KB = 1024;
    /** sys.dm_exec_sessions.memory_usage counts 8 KB pages. */
    private static final long PAGE = 8 * KB;
    private static final Pattern VERSION = Pattern.compile("(\\d+)\\.(\\d+)\\.(\\d+)(?:\\.\\d+)?");

    SqlServerReading {
        Objects.requireNonNull(results, "results");
    }

    MemorySnapshot snapshot() throws ProbeException {
        try {
            Map<String, String> server = results.server().single();
            String version = results.server().text(server, "product_version");
            Map<String, Long> counters = counters();
            return new MemorySnapshot(takenAtNanos, new ServerVersion(version, versionNumber(version)),
                    memory(counters), connections(results.server().number(server, "max_connections")),
                    pressure(counters), plannerSettings(), host(), gateways());
        } catch (IllegalStateException | IllegalArgumentException | ArithmeticException e) {
            throw new ProbeException("SQL Server probe: " + e.getMessage(), e);
        }
    }

    private ServerMemory memory(Map<String, Long> counters) {
        Map<String, Long> clerks = clerkBytes();
        long cache = clerks.getOrDefault(BUFFER_POOL, 0L)
                + PLAN_CACHES.stream().mapToLong(type -> clerks.getOrDefault(type, 0L)).sum();
        long query = Math.max(grantBytes(), clerks.getOrDefault(QUERY_EXECUTION, 0L));
        long compile = clerks.getOrDefault(OPTIMIZER, 0L) + clerks.getOrDefault(QUERY_COMPILE, 0L);
        return new ServerMemory(cache, query, OptionalLong.empty(), OptionalLong.of(compile), sessionBytes(),
                OptionalLong.of(counter(counters, TARGET_MEMORY) * KB));
    }

    private Map<String, String> plannerSettings() {
        ResultRows sysInfo = results.sysInfo();
        Map<String, String> row = sysInfo.single();
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("cpu_count", sysInfo.text(row, "cpu_count"));
        settings.put("scheduler_count", sysInfo.text(row, "scheduler_count"));
        return settings;
    }

    /** Bytes by clerk type, each type's pages summed over the memory nodes. */
    Map<String, Long> clerkBytes() {
        Map<String, Long> bytes = new HashMap<>();
        ResultRows clerks = results.clerks();
        for (Map<String, String> row : clerks.rows()) {
            bytes.merge(clerks.text(row, "type"), clerks.number(row, "pages_kb") * KB, Long::sum);
        }
        return bytes;
    }

    /**
     * Counter values by "object/counter", the instance prefix of object_name dropped ("SQLServer:" on a default
     * instance, "MSSQL$NAME:" on a named one). Only the objects the probe names count: Page reads/sec is also
     * kept per NUMA node under Buffer Node.
     */
    Map<String, Long> counters() {
        Map<String, Long> values = new HashMap<>();
        ResultRows counters = results.counters();
        for (Map<String, String> row : counters.rows()) {
            String object = counters.text(row, "object_name");
            String key = object.substring(object.indexOf(':') + 1) + "/" + counters.text(row, "counter_name");
            values.put(key, counters.number(row, "cntr_value"));
        }
        return values;
    }

    /** Workspace memory queries hold now, or wait for: what running queries take before a compile may. */
    long grantBytes() {
        ResultRows grants = results.grants();
        long kilobytes = 0;
        for (Map<String, String> row : grants.rows()) {
            OptionalLong granted = grants.optionalNumber(row, "granted_memory_kb");
            kilobytes += granted.isPresent() ? granted.getAsLong() : grants.number(row, "requested_memory_kb");
        }
        return kilobytes * KB;
    }

    /** One wait type's cumulative counts. */
    private record Wait(long tasks, long millis) {
        static final Wait NONE = new Wait(0, 0);
    }

    /** waiting_tasks_count and wait_time_ms by wait type; a type the view does not list was never waited on. */
    private Map<String, Wait> waits() {
        Map<String, Wait> byType = new HashMap<>();
        ResultRows waits = results.waits();
        for (Map<String, String> row : waits.rows()) {
            byType.put(waits.text(row, "wait_type"),
                    new Wait(waits.number(row, "waiting_tasks_count"), waits.number(row, "wait_time_ms")));
        }
        return byType;
    }

    private Map<Integer, Long> sessionBytes() {
        Map<Integer, Long> byId = new TreeMap<>();
        ResultRows sessions = results.sessions();
        for (Map<String, String> row : sessions.rows()) {
            byId.put(Math.toIntExact(sessions.number(row, "session_id")), sessions.number(row, "memory_usage") * PAGE);
        }
        return byId;
    }

    private ServerConnections connections(long maxConnections) {
        ResultRows sessions = results.sessions();
        List<Integer> ids = new ArrayList<>();
        int active = 0;
        for (Map<String, String> row : sessions.rows()) {
            ids.add(Math.toIntExact(sessions.number(row, "session_id")));
            active += sessions.number(row, "running") == 0 ? 0 : 1;
        }
        ids.sort(Integer::compare);
        return new ServerConnections(Math.toIntExact(maxConnections), active, ids);
    }

    private PressureCounters pressure(Map<String, Long> counters) {
        long reads = counter(counters, PAGE_READS);
        long lookups = counter(counters, PAGE_LOOKUPS);
        Map<String, Wait> waits = waits();
        long compileWaits = waits.getOrDefault(COMPILE_WAIT, Wait.NONE).tasks();
        long memoryWaitMillis = MEMORY_WAITS.stream().mapToLong(type -> waits.getOrDefault(type, Wait.NONE).millis())
                .sum();
        return new PressureCounters(counter(counters, WORKFILES), reads, Math.max(0, lookups - reads),
                Optional.empty(), OptionalLong.of(compileWaits), OptionalLong.of(memoryWaitMillis));
    }

    private HostMemory host() {
        ResultRows sysMemory = results.sysMemory();
        return new HostMemory(OptionalLong.empty(),
                OptionalLong.of(sysMemory.number(sysMemory.single(), "available_physical_memory_kb") * KB));
    }

    List<ServerGateway> gateways() {
        List<ServerGateway> gateways = new ArrayList<>();
        if (results.gateways().isEmpty()) {
            return gateways;
        }
        ResultRows rows = results.gateways().get();
        for (Map<String, String> row : rows.rows()) {
            long threshold = rows.number(row, "threshold");
            gateways.add(new ServerGateway(rows.text(row, "name"), Math.toIntExact(rows.number(row, "pool_id")),
                    Math.toIntExact(rows.number(row, "max_count")), Math.toIntExact(rows.number(row, "active_count")),
                    Math.toIntExact(rows.number(row, "waiter_count")),
                    threshold < 0 ? OptionalLong.empty() : OptionalLong.of(threshold)));
        }
        return gateways;
    }

    private static long counter(Map<String, Long> counters, String key) {
        Long value = counters.get(key);
        if (value == null) {
            throw new IllegalStateException("sys.dm_os_performance_counters has no " + key + " counter");
        }
        return value;
    }

    /** "16.0.4135.4" as 160004135: major, minor and build in an int that orders releases. */
    static int versionNumber(String version) {
        Matcher matcher = VERSION.matcher(version == null ? "" : version);
        if (!matcher.matches()) {
            throw new IllegalArgumentException("cannot read SQL Server's ProductVersion '" + version + "'");
        }
        int build = Integer.parseInt(matcher.group(3));
        int minor = Integer.parseInt(matcher.group(2));
        if (build >= 100_000 || minor >= 100) {
            throw new IllegalArgumentException("SQL Server's ProductVersion '" + version + "' is beyond what the"
                    + " broker numbers releases by");
        }
        return Integer.parseInt(matcher.group(1)) * 10_000_000 + minor * 100_000 + build;
    }
}

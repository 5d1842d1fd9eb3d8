package io.memogate.broker.probe.mysql;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

import io.memogate.broker.probe.HostMemory;
import io.memogate.broker.probe.MemorySnapshot;
import io.memogate.broker.probe.PressureCounters;
import io.memogate.broker.probe.ProbeException;
import io.memogate.broker.probe.ServerConnections;
import io.memogate.broker.probe.ServerMemory;
import io.memogate.broker.probe.ServerVersion;

/**
 * One poll's readings in the server's own terms, and their mapping into the broker's server-neutral
 * {@link MemorySnapshot} ({@link #snapshot()}):
 * <pre>
 * version            @@version; its major.minor.patch as MYSQL_VERSION_ID orders them
 * memory.cache       innodb_buffer_pool_size
 * memory.query       threads' memory, summed over those running a statement (MariaDB PROCESSLIST.MEMORY_USED,
 *                    MySQL 8.0.31+ threads.TOTAL_MEMORY); without them MariaDB Memory_used - Memory_used_initial
 *                    (every connection's memory), MySQL Global_connection_memory when tracked, else
 *                    performance_schema's total less the buffer pool, else (Threads_running - 1) x sort_buffer_size
 * memory.operation   sort_buffer_size
 * memory.compile     threads' memory, summed over those in an optimizer stage; without them performance_schema's
 *                    memory/sql/THD::main_mem_root; else empty
 * memory.retained    each connection's memory by its id, where threads' memory is read
 * connections        max_connections; the threads, or Threads_connected and Threads_running without PROCESS
 * pressure.spilled   Created_tmp_disk_tables + Sort_merge_passes: spills counted, not in bytes (neither server
 *                    keeps a byte count); the broker only compares its rate between intervals
 * pressure.cache     Innodb_buffer_pool_reads (misses) and read_requests less reads (hits)
 * plannerSettings    optimizer_search_depth, optimizer_prune_level, optimizer_switch
 * </pre>
 * Counts that leave out the probe's own connection: the thread lists exclude it, Threads_running counts it.
 *
 * @param takenAtNanos when the poll started, on the probe's clock
 * @param flavor       which server
 * @param values       global variables and status
 * @param threads      the client connections' threads; empty without PROCESS
 * @param instruments  performance_schema's memory instruments; empty when off or not readable
 * @param host         the host's memory when co-located, else empty
 */
record MySqlReading(long takenAtNanos, Flavor flavor, GlobalValues values, Optional<List<ThreadRow>> threads,
                    Optional<MemoryInstruments> instruments, HostMemory host) {

    MySqlReading {
        Objects.requireNonNull(flavor, "flavor");
        Objects.requireNonNull(values, "values");
        threads = threads.map(List::copyOf);
        Objects.requireNonNull(instruments, "instruments");
        Objects.requireNonNull(host, "host");
    }

    MemorySnapshot snapshot() throws ProbeException {
        String version = values.version();
        int number;
        try {
            number = Flavor.versionNumber(version);
        } catch (IllegalArgumentException e) {
            throw new ProbeException(e.getMessage(), e);
        }
        return new MemorySnapshot(takenAtNanos, new ServerVersion(version, number),
                new ServerMemory(values.variable("innodb_buffer_pool_size"), queryBytes(),
                        OptionalLong.of(values.variable("sort_buffer_size")), compileBytes(), retainedBytes()),
                connections(), pressure(), plannerSettings(), host);
    }

    /** Threads whose memory the server reports, or empty: all of them or none do on one server. */
    private Optional<List<ThreadRow>> threadsWithMemory() {
        return threads.filter(rows -> rows.stream().allMatch(row -> row.memoryBytes().isPresent()));
    }

    long queryBytes() throws ProbeException {
        Optional<List<ThreadRow>> measured = threadsWithMemory();
        if (measured.isPresent()) {
            return measured.get().stream().filter(ThreadRow::active)
                    .mapToLong(row -> row.memoryBytes().getAsLong()).sum();
        }
        if (flavor == Flavor.MARIADB) {
            return Math.max(0, values.status("Memory_used") - values.status("Memory_used_initial"));
        }
        OptionalLong connectionMemory = values.optionalStatus("Global_connection_memory");
        if (values.variableOn("global_connection_memory_tracking") && connectionMemory.isPresent()) {
            return connectionMemory.getAsLong();
        }
        if (instruments.isPresent() && instruments.get().bufferPoolBytes().isPresent()) {
            MemoryInstruments counted = instruments.get();
            return Math.max(0, counted.totalBytes() - counted.bufferPoolBytes().getAsLong());
        }
        return otherRunning() * values.variable("sort_buffer_size");
    }

    OptionalLong compileBytes() {
        Optional<List<ThreadRow>> measured = threadsWithMemory();
        if (measured.isPresent()) {
            return OptionalLong.of(measured.get().stream().filter(ThreadRow::compiling)
                    .mapToLong(row -> row.memoryBytes().getAsLong()).sum());
        }
        return instruments.map(MemoryInstruments::statementArenaBytes).orElse(OptionalLong.empty());
    }

    private Map<Integer, Long> retainedBytes() throws ProbeException {
        Map<Integer, Long> byId = new TreeMap<>();
        for (ThreadRow row : threadsWithMemory().orElse(List.of())) {
            byId.put(id(row), row.memoryBytes().getAsLong());
        }
        return byId;
    }

    private ServerConnections connections() throws ProbeException {
        int limit = Math.toIntExact(values.variable("max_connections"));
        if (threads.isPresent()) {
            List<Integer> ids = new ArrayList<>();
            for (ThreadRow row : threads.get()) {
                ids.add(id(row));
            }
            return new ServerConnections(limit, (int) threads.get().stream().filter(ThreadRow::active).count(), ids);
        }
        return new ServerConnections(limit, Math.toIntExact(otherRunning()), List.of());
    }

    /** Statements running now besides the probe's own (Threads_running counts the one reading it). */
    private long otherRunning() throws ProbeException {
        return Math.max(0, values.status("Threads_running") - 1);
    }

    private PressureCounters pressure() throws ProbeException {
        long reads = values.status("Innodb_buffer_pool_reads");
        long requests = values.status("Innodb_buffer_pool_read_requests");
        return new PressureCounters(values.status("Created_tmp_disk_tables") + values.status("Sort_merge_passes"),
                reads, Math.max(0, requests - reads), Optional.empty(), OptionalLong.empty());
    }

    private Map<String, String> plannerSettings() {
        Map<String, String> settings = new LinkedHashMap<>();
        for (String name : GlobalValues.OPTIMIZER_SETTINGS) {
            String value = values.variables().get(name);
            if (value != null) {
                settings.put(name, value);
            }
        }
        return settings;
    }

    private static int id(ThreadRow row) throws ProbeException {
        if (row.id() > Integer.MAX_VALUE) {
            throw new ProbeException("connection id " + row.id() + " is beyond what the broker counts connections by");
        }
        return (int) row.id();
    }
}

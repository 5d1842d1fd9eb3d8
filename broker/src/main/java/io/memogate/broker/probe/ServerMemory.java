package io.memogate.broker.probe;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * What a server reserves and what its work may take, in bytes; see {@link MemorySnapshot} for what each
 * kind of server maps here.
 *
 * @param cacheBytes        memory the server reserves for its data cache, counted once for the host
 * @param queryBytes        memory the queries running now may take: the broker keeps it free for them
 * @param operationBytes    memory one sort or hash may take before it spills, where one setting bounds it
 * @param compileBytes      memory compiles hold now, where the server reports it
 * @param retainedBytesById private memory each server process or connection holds, by its id, where it
 *                          can be read (for PostgreSQL: when co-located)
 * @param ceilingBytes      the memory the server bounds its own use by, where it keeps one (SQL Server: its
 *                          target server memory); the broker plans within it as within the host's memory
 */
public record ServerMemory(
        long cacheBytes,
        long queryBytes,
        OptionalLong operationBytes,
        OptionalLong compileBytes,
        Map<Integer, Long> retainedBytesById,
        OptionalLong ceilingBytes) {

    /** The memory of a server that takes what the host gives it, with no ceiling of its own. */
    public ServerMemory(long cacheBytes, long queryBytes, OptionalLong operationBytes, OptionalLong compileBytes,
                        Map<Integer, Long> retainedBytesById) {
        this(cacheBytes, queryBytes, operationBytes, compileBytes, retainedBytesById, OptionalLong.empty());
    }

    public ServerMemory {
        requireNonNegative("cacheBytes", cacheBytes);
        requireNonNegative("queryBytes", queryBytes);
        Objects.requireNonNull(operationBytes, "operationBytes");
        operationBytes.ifPresent(bytes -> requireNonNegative("operationBytes", bytes));
        Objects.requireNonNull(compileBytes, "compileBytes");
        compileBytes.ifPresent(bytes -> requireNonNegative("compileBytes", bytes));
        retainedBytesById = Collections.unmodifiableMap(new TreeMap<>(
                Objects.requireNonNull(retainedBytesById, "retainedBytesById")));
        retainedBytesById.forEach((id, bytes) -> requireNonNegative("retainedBytesById[" + id + "]", bytes));
        Objects.requireNonNull(ceilingBytes, "ceilingBytes");
        ceilingBytes.ifPresent(bytes -> requireNonNegative("ceilingBytes", bytes));
    }

    /** The sum of {@link #retainedBytesById()}: what the server holds beyond its cache. */
    public long retainedBytesTotal() {
        return retainedBytesById.values().stream().mapToLong(Long::longValue).sum();
    }

    private static void requireNonNegative(String field, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(field + " must be >= 0, was " + value);
        }
    }
}

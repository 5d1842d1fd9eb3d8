package io.memogate.broker.probe.postgres;

import java.util.Map;
import java.util.Objects;

/**
 * The pg_settings values one poll reads, as PostgreSQL states them.
 *
 * @param serverVersion      server_version, e.g. "18.1"
 * @param serverVersionNum   server_version_num, e.g. 180001
 * @param sharedBuffersBytes shared_buffers: the buffer pool, mapped once and counted once for the host
 * @param workMemBytes       work_mem: memory one sort or hash node may use before spilling
 * @param hashMemMultiplier  hash_mem_multiplier: hash nodes may use this many times work_mem
 * @param maxConnections     max_connections
 * @param plannerSettings    the settings that decide how the planner splits and searches a join problem
 */
record ServerSettings(String serverVersion, int serverVersionNum, long sharedBuffersBytes, long workMemBytes,
                      double hashMemMultiplier, int maxConnections, Map<String, String> plannerSettings) {

    ServerSettings {
        Objects.requireNonNull(serverVersion, "serverVersion");
        if (!(hashMemMultiplier >= 1.0) || Double.isInfinite(hashMemMultiplier)) {
            // PostgreSQL accepts 1..1000; NaN fails this test too.
            throw new IllegalArgumentException("hashMemMultiplier must be a finite number >= 1, was "
                    + hashMemMultiplier);
        }
        plannerSettings = Map.copyOf(plannerSettings);
    }
}

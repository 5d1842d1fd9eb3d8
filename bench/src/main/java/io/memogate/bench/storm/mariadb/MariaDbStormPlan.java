package io.memogate.bench.storm.mariadb;

import java.nio.file.Path;
import java.time.Duration;

/**
 * What one MariaDB storm runs: per mode (direct, then through Memogate with its gateways on), a quiet baseline of
 * point selects, then the storm (heavy clients of both kinds, half each, and the point selects beside them).
 *
 * @param heavyClients clients looping over heavy statements, half reports with pruning off and half IN lists
 * @param pointSelectThreads sysbench's threads
 * @param quiet how long the baseline measures point selects alone
 * @param warmup how long the heavy clients run before the point selects are measured beside them
 * @param measured how long the point selects and the heavy statements' completions are measured
 * @param hostMemoryBytes the emulated host: the server's private memory may not exceed it
 * @param inListValues values in each IN list
 * @param boundSeconds max_statement_time of each heavy statement
 */
public record MariaDbStormPlan(int heavyClients, int pointSelectThreads, Duration quiet, Duration warmup,
                               Duration measured, long hostMemoryBytes, Duration governorInterval, int inListValues,
                               int boundSeconds, long seed, Path directory) {

    public MariaDbStormPlan {
        if (heavyClients < 2) {
            throw new IllegalArgumentException("--clients must be at least 2 with --server mariadb (half reports, half "
                    + "IN lists), was " + heavyClients);
        }
    }
}

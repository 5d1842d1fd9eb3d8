package io.memogate.broker.probe.postgres;

import java.util.Optional;

import io.memogate.broker.probe.IoCounters;

/**
 * Cumulative counters of one poll, summed over all databases.
 *
 * @param tempBytes  pg_stat_database.temp_bytes: bytes written to temporary files (spills)
 * @param blocksRead pg_stat_database.blks_read: blocks read from outside the buffer pool
 * @param blocksHit  pg_stat_database.blks_hit: blocks found in the buffer pool
 * @param io         pg_stat_io of client backends, on PostgreSQL 16+
 */
record CumulativeStatistics(long tempBytes, long blocksRead, long blocksHit, Optional<IoCounters> io) {
}
